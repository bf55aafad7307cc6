"""The state of a Tjugoett table, how each event changes it, and which timers are live.

What this module keeps: everything a table *is* after some events. `decide` (in
`tjugoett/__init__.py`) reads it to judge a command; only `evolve` changes it, one recorded
event at a time, so a replay of the log is the live state.

Theory of operation:
- A table plays rounds until the director ends it. Its phase (`TjugoettState.phase`):

  | phase | what may happen |
  |---|---|
  | `between_rounds` | before the first round and after each: the next round starts |
  | `player_turn` | the player whose turn it is draws (R-21-10) or stands (R-21-11) |
  | `dealer_turn` | that player stood: the dealer draws and stands (R-21-14) |
  | `table_over` | the director ended the table: nothing more happens |

- The cards of a round are always in exactly one place: the draw pile (index 0 is the top),
  a player's hand, the dealer's hand or the discard pile (R-21-3, R-21-12/13). `evolve`
  moves them exactly as the events say (a property test checks that 52 cards stay 52).
- Every event carries its time in `data["at"]`; `timer_from`, the start of the live timer,
  is set by each event after which somebody is expected to act.
- A deadline's key names the round, the seat and the number of cards held, so a timer fired
  after the hand changed no longer matches and is refused as stale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from server.games.base import SERVER_ACTOR, Command, Deadline
from server.games.kit import unchanged
from server.games.tjugoett.options import TableOptions, table_options

BETWEEN_ROUNDS, PLAYER_TURN, DEALER_TURN, TABLE_OVER = (
    "between_rounds",
    "player_turn",
    "dealer_turn",
    "table_over",
)
PHASES = (BETWEEN_ROUNDS, PLAYER_TURN, DEALER_TURN, TABLE_OVER)
DEALER = "dealer"  # the `holder` of the dealer's cards in `CardsDiscarded`

# Deadline kinds -> the command the shell fires when one is due.
DEADLINE_COMMANDS = {
    "dealer": "dealer_play",  # the server dealer's next move
    "dealer_wait": "dealer_play",  # a person dealer waited `turn_seconds`: the server moves
    "turn": "turn_deadline",  # a player waited `turn_seconds`: the player stands
    "round": "start_round",  # `next_round_seconds` after a round ended
}


@dataclass(frozen=True)
class Hand:
    """A player's cards in the current round, and whether the player's turn is over."""

    seat: str
    cards: tuple[str, ...] = ()
    settled: bool = False


@dataclass(frozen=True)
class TurnResult:
    """How one player's turn against the dealer ended (public once recorded)."""

    seat: str
    winner: str  # "player" or "dealer"
    reason: str
    rule: str
    player_cards: tuple[str, ...]
    player_sum: int
    dealer_cards: tuple[str, ...]
    dealer_sum: int | None

    def as_data(self) -> dict[str, Any]:
        """The result as plain data (views)."""
        return {
            "seat": self.seat,
            "winner": self.winner,
            "reason": self.reason,
            "rule": self.rule,
            "player_cards": list(self.player_cards),
            "player_sum": self.player_sum,
            "dealer_cards": list(self.dealer_cards),
            "dealer_sum": self.dealer_sum,
        }


@dataclass(frozen=True)
class Tally:
    """A seat's wins and losses against the dealer over every round of the table."""

    seat: str
    won: int = 0
    lost: int = 0


@dataclass(frozen=True)
class TjugoettState:
    """One table: its options, the round in play (or the last one) and the running tally."""

    options: TableOptions
    tally: tuple[Tally, ...]
    round: int = 0  # the round in play or the last one played; 0 before the first
    in_round: bool = False
    table_over: bool = False
    draw_pile: tuple[str, ...] = ()
    discard_pile: tuple[str, ...] = ()
    hands: tuple[Hand, ...] = ()
    turn: str | None = None  # the seat facing the dealer (R-21-5)
    stood: bool = False  # that player stood: the dealer's turn (R-21-14)
    dealer_cards: tuple[str, ...] = ()
    reshuffles: int = 0  # rebuilds of the draw pile in this round (R-21-21)
    results: tuple[TurnResult, ...] = ()  # this round's (kept until the next round starts)
    end_reason: str | None = None  # why the last round ended
    clock: int = 0  # the latest time recorded by an event
    timer_from: int = 0  # the start of the live timer (see the module docstring)

    @property
    def phase(self) -> str:
        """Where the table is: one of PHASES."""
        if self.table_over:
            return TABLE_OVER
        if not self.in_round or self.turn is None:
            return BETWEEN_ROUNDS
        return DEALER_TURN if self.stood else PLAYER_TURN

    def hand(self, seat: str) -> Hand | None:
        """The seat's hand in the current round, or None."""
        for hand in self.hands:
            if hand.seat == seat:
                return hand
        return None

    def cards_of(self, seat: str) -> tuple[str, ...]:
        """The cards the seat holds now (none outside a round)."""
        hand = self.hand(seat)
        return hand.cards if hand else ()

    def next_seat(self) -> str | None:
        """The next seat in seat order whose turn has not come yet this round (R-21-5)."""
        for hand in self.hands:
            if not hand.settled and hand.seat != self.turn:
                return hand.seat
        return None

    def tally_of(self, seat: str) -> Tally:
        """The seat's running tally."""
        for entry in self.tally:
            if entry.seat == seat:
                return entry
        return Tally(seat)

    def dealer_tally(self) -> Tally:
        """The dealer's tally: it wins what the players lose and loses what they win."""
        return Tally(
            DEALER,
            won=sum(entry.lost for entry in self.tally),
            lost=sum(entry.won for entry in self.tally),
        )

    def tally_data(self) -> dict[str, dict[str, int]]:
        """The tally as plain data: seat (and `dealer`) -> won, lost."""
        entries = (*self.tally, self.dealer_tally())
        return {entry.seat: {"won": entry.won, "lost": entry.lost} for entry in entries}


def initial_state(options: Mapping[str, Any]) -> TjugoettState:
    """The table before its first round; raises RuleViolation `bad_options` on bad options."""
    read = table_options(options)
    return TjugoettState(options=read, tally=tuple(Tally(seat) for seat in read.seat_ids()))


# -- evolve ---------------------------------------------------------------------------------


def _take(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The pile without `card` (the top, when the log is the game's own)."""
    if pile and pile[0] == card:
        return pile[1:]
    return tuple(other for other in pile if other != card)


def _with_hand(state: TjugoettState, seat: str, **changes: Any) -> tuple[Hand, ...]:
    return tuple(replace(hand, **changes) if hand.seat == seat else hand for hand in state.hands)


def _round_started(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    return replace(
        state,
        round=data["round"],
        in_round=True,
        draw_pile=tuple(data["order"]),
        discard_pile=(),
        hands=tuple(Hand(seat) for seat in state.options.seat_ids()),
        turn=None,
        stood=False,
        dealer_cards=(),
        reshuffles=0,
        results=(),
        end_reason=None,
        timer_from=data["at"],
    )


def _card_dealt(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    seat, card = data["seat"], data["card"]
    hands = _with_hand(state, seat, cards=state.cards_of(seat) + (card,))
    return replace(
        state, draw_pile=_take(state.draw_pile, card), hands=hands, timer_from=data["at"]
    )


def _turn_started(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    return replace(state, turn=data["seat"], stood=False, timer_from=data["at"])


def _player_stood(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    return replace(state, stood=True, timer_from=data["at"])


def _dealer_card_dealt(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    card = data["card"]
    return replace(
        state,
        draw_pile=_take(state.draw_pile, card),
        dealer_cards=state.dealer_cards + (card,),
        timer_from=data["at"],
    )


def _turn_settled(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    seat = data["seat"]
    result = TurnResult(
        seat=seat,
        winner=data["winner"],
        reason=data["reason"],
        rule=data["rule"],
        player_cards=tuple(data["player_cards"]),
        player_sum=data["player_sum"],
        dealer_cards=tuple(data["dealer_cards"]),
        dealer_sum=data["dealer_sum"],
    )
    won = data["winner"] == "player"
    tally = tuple(
        replace(entry, won=entry.won + won, lost=entry.lost + (not won))
        if entry.seat == seat
        else entry
        for entry in state.tally
    )
    return replace(
        state,
        results=state.results + (result,),
        tally=tally,
        hands=_with_hand(state, seat, settled=True),
        stood=False,
    )


def _cards_discarded(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    holder, cards = data["holder"], tuple(data["cards"])
    discard = state.discard_pile + cards
    if holder == DEALER:
        return replace(state, dealer_cards=(), discard_pile=discard)
    return replace(state, hands=_with_hand(state, holder, cards=()), discard_pile=discard)


def _discards_reshuffled(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    return replace(
        state, draw_pile=tuple(data["order"]), discard_pile=(), reshuffles=state.reshuffles + 1
    )


def _round_ended(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    return replace(
        state,
        in_round=False,
        turn=None,
        stood=False,
        end_reason=data["reason"],
        timer_from=data["at"],
    )


def _table_ended(state: TjugoettState, data: Mapping[str, Any]) -> TjugoettState:
    return replace(state, table_over=True, in_round=False, turn=None, stood=False)


EVOLVERS: dict[str, Callable[[TjugoettState, Mapping[str, Any]], TjugoettState]] = {
    "RoundStarted": _round_started,
    "CardDealt": _card_dealt,
    "TurnStarted": _turn_started,
    "PlayerStood": _player_stood,
    "DealerCardDealt": _dealer_card_dealt,
    "DealerStood": unchanged,
    "TurnSettled": _turn_settled,
    "CardsDiscarded": _cards_discarded,
    "DiscardsReshuffled": _discards_reshuffled,
    "DrawFailed": unchanged,
    "RoundEnded": _round_ended,
    "TableEnded": _table_ended,
}
EVENT_TYPES = frozenset(EVOLVERS)


# -- deadlines ------------------------------------------------------------------------------


def _deadline(kind: str, key: str, at: int) -> Deadline:
    key = f"{kind}:{key}"
    return Deadline(key, at, Command(DEADLINE_COMMANDS[kind], {"key": key}, SERVER_ACTOR))


def deadlines(state: TjugoettState) -> list[Deadline]:
    """Exactly the timers that are live now (at most one).

    Why derived and not stored: after a restart the shell derives them again from the
    replayed state, and a command fired for a timer no longer listed is stale.
    """
    options, start, phase = state.options, state.timer_from, state.phase
    if phase == DEALER_TURN:
        where = f"{state.round}:{state.turn}:{len(state.dealer_cards)}"
        if options.dealer is None:
            return [_deadline("dealer", where, start + options.dealer_us)]
        if options.turn_us is not None:
            return [_deadline("dealer_wait", where, start + options.turn_us)]
    elif phase == PLAYER_TURN and options.turn_us is not None:
        assert state.turn is not None
        where = f"{state.round}:{state.turn}:{len(state.cards_of(state.turn))}"
        return [_deadline("turn", where, start + options.turn_us)]
    elif phase == BETWEEN_ROUNDS and state.round > 0 and options.next_round_us is not None:
        return [_deadline("round", str(state.round + 1), start + options.next_round_us)]
    return []


def is_over(state: TjugoettState) -> bool:
    """True once the director ended the table (`TableEnded`)."""
    return state.table_over


# Nothing is decided after `TableEnded` (every command is refused in `table_over`, no
# deadline is live), so a table whose log ends with it is over.
FINAL_EVENTS = frozenset({"TableEnded"})
