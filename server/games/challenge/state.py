"""The state of a 24 Challenge table: the phases, a seat, a protest, the card in play, and
the table itself, all frozen records; `replace` copies one with changes.

Why a module of their own: `evolvers.py` (what each event does to them) and the modules that
read them (`senders`, `view`, `protests`) share one definition, and no module grows past what
a reader holds in mind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from server.games.challenge.options import Card, CardId, TableOptions
from server.games.kit import replace_record

SETUP, BETWEEN, PLACED, REVEALED, SOLVING, ENDED = (
    "setup",
    "between_cards",
    "placed",
    "revealed",
    "solving",
    "ended",
)
RUNNING_PHASES = (BETWEEN, PLACED, REVEALED, SOLVING)


@dataclass(frozen=True)
class SeatState:
    """A student's round so far: points, flags, disqualification (R-PLAY-6, R-FLAG)."""

    seat: str
    name: str
    score: int = 0
    flags: int = 0
    disqualified: bool = False
    cards_won: tuple[CardId, ...] = ()
    flag_seqs: tuple[int, ...] = ()  # the seq of each flag that stands (R-ROUND-8 rescinds)
    disqualified_cause: str | None = None  # "flag_limit" (R-FLAG-3) or "slap" (R-PLAY-3)
    reinstated_from: int = 0  # a reinstated student acts again from this play (R-ROUND-8)


@dataclass(frozen=True)
class Protest:
    """A protest (R-ROUND-8): who filed it, the events it disputes (by seq), and its ruling."""

    protest: int  # 1 for the table's first protest, 2 for the next, ...
    by: str  # the seat it is filed for, or "proctor" / "director"
    seqs: tuple[int, ...]
    reason: str
    at: int
    status: str = "open"  # "open", "upheld" or "rejected"
    ruling_text: str | None = None
    ruled_at: int | None = None


@dataclass(frozen=True)
class TouchClaim:
    """A touch waiting for the arbitration of a compensated table (R-PLAY-2, issue 19): when
    it arrived, the delay the shell estimated, the credit applied, and so when it was made."""

    seat: str
    fingertips: int
    arrival: int
    delay_us: int | None
    credit_us: int
    compensated_at: int

    def as_data(self) -> dict[str, Any]:
        """The claim as recorded in `FirstTouchGranted.considered`."""
        return {
            "seat": self.seat,
            "arrival": self.arrival,
            "delay_us": self.delay_us,
            "credit_us": self.credit_us,
            "compensated_at": self.compensated_at,
        }


@dataclass(frozen=True)
class CardInPlay:
    """The card on the mat and what has happened to it during this play."""

    card: Card
    play: int  # 1 for the first card placed in the round, 2 for the next, ...
    placed_at: int
    revealed_at: int | None = None
    toucher: str | None = None  # the seat that holds the card (R-PLAY-2)
    touched_at: int | None = None
    touches: tuple[str, ...] = ()  # every seat whose touch was recorded, in arrival order
    fouls: tuple[str, ...] = ()  # seats whose touch was a foul (R-PLAY-3), first or later
    pattern: str | None = None  # as declared (R-PLAY-4)
    steps: tuple[str, ...] = ()  # as last stated (R-PLAY-5)
    x: int | None = None  # a Variables card's x as last stated (Q1)
    stumped: tuple[str, ...] = ()  # seats that declared themselves stumped (R-PLAY-7)
    claims: tuple[TouchClaim, ...] = ()  # touches awaiting arbitration, in arrival order


@dataclass(frozen=True)
class ChallengeState:
    """One table, one round. Deck order: index 0 is the top (the next card placed)."""

    options: TableOptions
    seats: tuple[SeatState, ...]
    started: bool = False
    ended: bool = False
    end_reason: str | None = None
    deck: tuple[CardId, ...] = ()
    round_cards: int = 0  # the cards the round plays (`RoundStarted.deck`, after R-DECK-4)
    removed: tuple[CardId, ...] = ()  # R-DECK-4
    card: CardInPlay | None = None
    stumped: tuple[CardId, ...] = ()  # the stumped pile (R-PLAY-7)
    revealed_cards: tuple[CardId, ...] = ()  # every card revealed so far (R-ROUND-8 awards)
    stumped_returned: bool = False  # replay_at_end: the pile went back to the deck once
    plays: int = 0
    started_at: int = (
        0  # when play began (`RoundStarted`, or `PlayBegan`): a timed round runs from it
    )
    waiting: bool = False  # the round started, play has not begun (challenge/arrival.py)
    attendance: Mapping[str, str] = field(default_factory=dict)  # seat -> "present" | "absent"
    clock: int = 0  # the latest time recorded by an event
    timer_from: int = 0  # the start of the live windows (see the module docstring)
    paused: bool = False
    pause_cause: str | None = None
    seq: int = 1  # the seq of the last event folded in (`TableCreated` is seq 1)
    protests: tuple[Protest, ...] = ()  # R-ROUND-8, in the order filed
    signed_by: str | None = None  # the proctor's initials on the score card (R-ROUND-7)
    signed_at: int | None = None
    signer_role: str | None = None  # who signed: "proctor" or "director" (R-ROUND-7)

    @property
    def signed(self) -> bool:
        """The score card is signed (R-ROUND-7): the table's result is final."""
        return self.signed_by is not None

    @property
    def phase(self) -> str:
        """Where the round is: one of SETUP, BETWEEN, PLACED, REVEALED, SOLVING, ENDED."""
        if self.ended:
            return ENDED
        if not self.started:
            return SETUP
        if self.card is None:
            return BETWEEN
        if self.card.revealed_at is None:
            return PLACED
        if self.card.toucher is None:
            return REVEALED
        return SOLVING

    def seat(self, seat_id: object) -> SeatState | None:
        """The seat with this id, or None."""
        for seat in self.seats:
            if seat.seat == seat_id:
                return seat
        return None

    def seats_in_play(self) -> tuple[str, ...]:
        """Seats not disqualified (R-FLAG-4: the last one standing plays on alone)."""
        return tuple(seat.seat for seat in self.seats if not seat.disqualified)

    def acts_on_card(self, seat: SeatState) -> bool:
        """Whether `seat` takes part in the card in play: in play, and not reinstated only
        from a later card (R-ROUND-8: "reinstated from the next card")."""
        if seat.disqualified:
            return False
        return self.card is None or seat.reinstated_from <= self.card.play

    def seats_on_card(self) -> tuple[str, ...]:
        """Seats that take part in the card in play (`acts_on_card`)."""
        return tuple(seat.seat for seat in self.seats if self.acts_on_card(seat))

    def protest(self, number: object) -> Protest | None:
        """The protest with this number, or None."""
        for protest in self.protests:
            if protest.protest == number and not isinstance(number, bool):
                return protest
        return None

    def open_protests(self) -> tuple[Protest, ...]:
        """The protests not ruled on yet."""
        return tuple(protest for protest in self.protests if protest.status == "open")

    def winner_of(self, card_id: object) -> str | None:
        """The seat whose won cards hold `card_id`, or None."""
        for seat in self.seats:
            if card_id in seat.cards_won:
                return seat.seat
        return None

    def scores(self) -> dict[str, int]:
        """Points per seat (R-PLAY-6); disqualified students keep theirs (R-FLAG-4)."""
        return {seat.seat: seat.score for seat in self.seats}


_Record = TypeVar("_Record", SeatState, Protest, CardInPlay, ChallengeState)


def replace(record: _Record, **changes: Any) -> _Record:
    """`dataclasses.replace` for the records above: the kit's fast copy (`replace_record`)."""
    return replace_record(record, **changes)


def with_seat(state: ChallengeState, seat_id: str, **changes: Any) -> ChallengeState:
    seats = tuple(
        replace(seat, **changes) if seat.seat == seat_id else seat for seat in state.seats
    )
    return replace(state, seats=seats)


def with_card(state: ChallengeState, **changes: Any) -> ChallengeState:
    assert state.card is not None
    return replace(state, card=replace(state.card, **changes))
