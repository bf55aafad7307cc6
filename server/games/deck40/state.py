"""The state of a Kortspillet 24 table, and how each event changes it.

What this module keeps: everything a table *is* after some events, and the evolvers
(`EVOLVERS`) the kit's `evolve` runs: only they change it, one recorded event at a time, so a
replay of the log is the live state.

Theory of operation (R-DECK40-1..7):
- Phases: `setup` (before `start_game`), `playing` (four cards face up), `ended`.
- Every one of the 40 cards lives in exactly one place: a player's own pile (face down, top
  first), the common pile (the dealer's variant), the table (face up, in the order turned up,
  each with the seat whose pile it came from, or None from the common pile), or a player's
  won cards (set aside). With the card version's house option the loser's pile takes the four
  cards instead (R-DECK40-6).
- A *set* is the four cards on the table; `set_number` counts them. Per set the state keeps
  who is excluded (a wrong "24!", R-DECK40-2) and who called "no solution" with the card he
  chose to return (R-DECK40-3/4). Both start empty with each new set.
- No timers: the players agree (R-DECK40-3), so `deadlines` is always empty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from server.games.base import Deadline
from server.games.deck40.options import Deck40Options, table_options
from server.games.kit import unchanged

SETUP, PLAYING, ENDED = "setup", "playing", "ended"


@dataclass(frozen=True)
class SeatState:
    """A player's game: points (simple, advanced), won cards set aside, his own pile."""

    seat: str
    name: str
    score: int = 0
    won: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()  # face down, index 0 on top


@dataclass(frozen=True)
class OnTable:
    """A face-up card and the seat whose pile it came from (None: the common pile)."""

    card: str
    seat: str | None


@dataclass(frozen=True)
class Deck40State:
    """One table."""

    options: Deck40Options
    seats: tuple[SeatState, ...]
    started: bool = False
    ended: bool = False
    end_reason: str | None = None
    common: tuple[str, ...] = ()  # the common pile, index 0 on top (R-DECK40-5)
    table: tuple[OnTable, ...] = ()
    set_number: int = 0
    excluded: tuple[str, ...] = ()  # R-DECK40-2, this set only
    no_solution: Mapping[str, str | None] = field(default_factory=dict)  # seat -> its return
    after_no_solution: bool = False  # some player called "no solution" on this set
    agreed_in_a_row: int = 0  # "no solution" agreements since the last won set
    clock: int = 0
    result: Mapping[str, Any] | None = None

    @property
    def phase(self) -> str:
        """One of SETUP, PLAYING, ENDED."""
        if self.ended:
            return ENDED
        return PLAYING if self.started else SETUP

    def seat(self, seat_id: object) -> SeatState | None:
        """The seat with this id, or None."""
        for seat in self.seats:
            if seat.seat == seat_id:
                return seat
        return None

    def still_playing(self) -> tuple[str, ...]:
        """Seats not excluded from the four cards on the table (R-DECK40-2)."""
        return tuple(seat.seat for seat in self.seats if seat.seat not in self.excluded)

    def scores(self) -> dict[str, int]:
        """Points per seat (simple and advanced versions)."""
        return {seat.seat: seat.score for seat in self.seats}

    def cards_left(self) -> dict[str, int]:
        """Cards in each player's own pile (the card version's measure, R-DECK40-6)."""
        return {seat.seat: len(seat.pile) for seat in self.seats}

    def cards_in_play(self) -> int:
        """Cards still in the piles or on the table (not yet won or set aside)."""
        return len(self.common) + len(self.table) + sum(len(seat.pile) for seat in self.seats)

    def visible_of(self, seat_id: str) -> tuple[str, ...]:
        """The face-up cards that came from this seat's pile, in the order turned up."""
        return tuple(on.card for on in self.table if on.seat == seat_id)


def initial_state(options: Mapping[str, Any]) -> Deck40State:
    """The table before `start_game`; raises RuleViolation `invalid_options` on bad options."""
    read = table_options(options)
    return Deck40State(options=read, seats=tuple(SeatState(s.seat, s.name) for s in read.seats))


def deal(options: Deck40Options, deck: tuple[str, ...]) -> tuple[dict[str, list[str]], list[str]]:
    """Own piles dealt one card at a time in seat order, or everything in the common pile."""
    if options.layout == "common_pile":
        return {}, list(deck)
    ids = [seat.seat for seat in options.seats]
    return {seat: list(deck[index :: len(ids)]) for index, seat in enumerate(ids)}, []


# -- evolve ---------------------------------------------------------------------------------


def _with_seat(state: Deck40State, seat_id: str, **changes: Any) -> Deck40State:
    seats = tuple(replace(s, **changes) if s.seat == seat_id else s for s in state.seats)
    return replace(state, seats=seats)


def _game_started(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    piles = data["piles"]
    seats = tuple(replace(seat, pile=tuple(piles.get(seat.seat, ()))) for seat in state.seats)
    return replace(state, started=True, seats=seats, common=tuple(data["common"]))


def _cards_turned_up(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    table = list(state.table)
    for entry in data["cards"]:
        card, owner = entry["card"], entry["seat"]
        if owner is None:
            assert state.common[0] == card
            state = replace(state, common=state.common[1:])
        else:
            seat = state.seat(owner)
            assert seat is not None and seat.pile[0] == card
            state = _with_seat(state, owner, pile=seat.pile[1:])
        table.append(OnTable(card, owner))
    # Every turn-up makes a new set of four: nobody is excluded, nobody has called yet.
    return replace(
        state,
        table=tuple(table),
        set_number=data["set"],
        excluded=(),
        no_solution={},
        after_no_solution=False,
    )


def _player_excluded(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    return replace(state, excluded=state.excluded + (data["seat"],))


def _no_solution_called(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    calls = {**state.no_solution, data["seat"]: data["returns"]}
    return replace(state, no_solution=calls, after_no_solution=True)


def _round_won(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    """The winner sets the four cards aside, or (house option, R-DECK40-6) the loser takes
    them to the bottom of his pile."""
    cards = tuple(data["cards"])
    winner = state.seat(data["seat"])
    assert winner is not None
    taker = data.get("taken_by")
    won = winner.won if taker is not None else winner.won + cards
    state = _with_seat(state, winner.seat, score=winner.score + data["points"], won=won)
    if taker is not None:
        loser = state.seat(taker)
        assert loser is not None
        state = _with_seat(state, taker, pile=loser.pile + cards)
    return replace(state, table=(), agreed_in_a_row=0)


def _no_solution_agreed(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    return replace(state, agreed_in_a_row=state.agreed_in_a_row + 1)


def _cards_returned(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    """R-DECK40-4/5: each returned card goes to the bottom of the pile it came from."""
    returned = [entry["card"] for entry in data["returns"]]
    for entry in data["returns"]:
        owner = entry["seat"]
        if owner is None:
            state = replace(state, common=state.common + (entry["card"],))
        else:
            seat = state.seat(owner)
            assert seat is not None
            state = _with_seat(state, owner, pile=seat.pile + (entry["card"],))
    table = tuple(on for on in state.table if on.card not in returned)
    return replace(state, table=table)


def _game_ended(state: Deck40State, data: Mapping[str, Any]) -> Deck40State:
    return replace(state, ended=True, end_reason=data["reason"], result=dict(data))


EVOLVERS: dict[str, Callable[[Deck40State, Mapping[str, Any]], Deck40State]] = {
    "GameStarted": _game_started,
    "CardsTurnedUp": _cards_turned_up,
    "SolutionCalled": unchanged,
    "PlayerExcluded": _player_excluded,
    "NoSolutionCalled": _no_solution_called,
    "NoSolutionAgreed": _no_solution_agreed,
    "RoundWon": _round_won,
    "CardsReturned": _cards_returned,
    "GameEnded": _game_ended,
}
EVENT_TYPES = frozenset(EVOLVERS)
FINAL_EVENTS = frozenset({"GameEnded"})


def deadlines(state: Deck40State) -> list[Deadline]:
    """None: nothing in these rules is timed (the players agree, R-DECK40-3)."""
    return []


def is_over(state: Deck40State) -> bool:
    """True once `GameEnded` is recorded."""
    return state.ended
