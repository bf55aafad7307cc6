"""Tjugoett, the Swedish twenty-one (R-21-1..22 of shared/rules/tjugoett.md), as a Decider.

This module is the game's face for the shell (`server.games.base.Game`): `NAME`,
`initial_state`, `decide`, `evolve`, `deadlines`, `view`, `event_view`, `is_over`,
`FINAL_EVENTS`, `EVENT_TYPES`, `DEFAULT_OPTIONS`, `RECOVERY_COMMAND`, `COMMANDS_BY_ROLE`. It
holds `decide`, the only place that judges whether a command may happen and what follows
(built by the game kit, `server.games.kit`, from the table `COMMANDS` below). The cards, hand
values, verdicts and the shuffle live in `tjugoett/cards.py`, the options in
`tjugoett/options.py`, the state and its evolvers in `tjugoett/state.py`, the senders in
`tjugoett/senders.py`, every refusal code in `tjugoett/refusals.py`, what each viewer may see
in `tjugoett/view.py`.

How a round goes (each step cites its rule where it is decided below):
1. `start_round` (the director, the proctor, a person dealer, or the server after
   `next_round_seconds`): the 52 cards are shuffled into the draw pile, the order recorded
   in `RoundStarted` (R-21-3); every player gets one card (R-21-4).
2. The players face the dealer one at a time, in seat order (R-21-5). A turn starts with
   the player's second card (R-21-6). The player draws (R-21-10) or stands (R-21-11); 21
   wins at once (R-21-7), five cards under 21 win at once (R-21-8), over 21 is bust (R-21-9).
3. After a stand the dealer draws (R-21-14), from no cards, and stands with at least two;
   21 (R-21-15) and five cards under 21 (R-21-16) win for the dealer, over 21 loses
   (R-21-17); a standing dealer wins at or above the player's sum (R-21-18).
4. `TurnSettled` records the outcome; the player's cards, then the dealer's, go to the
   discard pile (R-21-12, R-21-13); the next seat's turn starts, or the round ends.
Every card is drawn from the top of the draw pile, one at a time (R-21-20). When one card
is left it is not dealt: the discard pile joins the draw pile and it is shuffled, the new
order recorded (R-21-21). With nothing to rebuild from, `DrawFailed` and `RoundEnded`
(reason `no_card_to_draw`) are recorded (R-21-22): a logged end of the round, never a crash.
(With 52 cards and at most 7 players at most 16 cards are ever out of the piles, so this
cannot happen in play; it is kept as a rule, and tested on a constructed state.)

Randomness: `decide` never calls `random`. Every order comes from `cards.shuffled` over the
table's secret `seed` option (or, for a round, an `order` the director gives), and is
recorded in the event; `evolve` only reads recorded orders.

HIDDEN (what the game hides from whom; checked on every event and snapshot by
tests/unit/test_tjugoett_properties.py): the dealer never sees a player's card or sum while
that player's turn is live: not the opening card, not a drawn card, not the sum at a stand
(R-21-19); the hand becomes public when the turn is settled (`TurnSettled`, needed to judge
it and shown, as a bust hand is shown at a real table). Other players and spectators see a
hand when its turn is over (`public_hands: turn_over`, the default) or as it is dealt
(`public_hands: live`). Only the director, the proctor, auditors and the server see the
draw pile's order (`RoundStarted.order`, `DiscardsReshuffled.order`) and the table's
`seed`, from which every order is derived. Each player always sees its own cards and sum;
the dealer's cards are public.
"""

from __future__ import annotations

from collections.abc import Callable

from server.games.base import Command, Decision
from server.games.kit import Kit, Rule
from server.games.tjugoett.cards import (
    DECK,
    MIN_STAND_CARDS,
    Verdict,
    dealer_verdict,
    hand_value,
    is_deck_order,
    player_verdict,
    reshuffle_label,
    round_label,
    server_dealer_stands,
    shuffled,
    stand_verdict,
)
from server.games.tjugoett.options import DEFAULT_OPTIONS as DEFAULT_OPTIONS
from server.games.tjugoett.options import check_new_table as check_new_table
from server.games.tjugoett.refusals import REFUSALS as REFUSALS
from server.games.tjugoett.refusals import phase_refusal, refuse
from server.games.tjugoett.senders import (
    OFFICIAL,
    OFFICIAL_OR_DEALER,
    OFFICIALS,
    PERSON_DEALER,
    SENDER_ROLES,
    TIMER,
    TURN_PLAYER,
    acting_seat,
)
from server.games.tjugoett.state import (
    BETWEEN_ROUNDS,
    DEADLINE_COMMANDS,
    DEALER,
    DEALER_TURN,
    EVOLVERS,
    PLAYER_TURN,
    TjugoettState,
)
from server.games.tjugoett.state import EVENT_TYPES as EVENT_TYPES
from server.games.tjugoett.state import FINAL_EVENTS as FINAL_EVENTS
from server.games.tjugoett.state import deadlines as deadlines
from server.games.tjugoett.state import initial_state as initial_state
from server.games.tjugoett.state import is_over as is_over
from server.games.tjugoett.view import event_view as event_view
from server.games.tjugoett.view import secrets as secrets
from server.games.tjugoett.view import view as view

NAME = "tjugoett"


# Nothing to pause after a restart: the live timers (the server dealer's pace, the next
# round, `turn_seconds`) simply run on. The only one that acts for a person is
# `turn_seconds` (off by default): a player whose time ran out while the server was down
# stands as soon as it is back. A table that cannot accept that should not set it.
RECOVERY_COMMAND: str | None = None
SEED_OPTION: str | None = "seed"  # left out: the shell draws one (base.SEED_OPTION)
# `next_round_seconds` starts round after round; with nobody seated the shell holds it
# (base.py, `UNATTENDED_HOLD`): the round in play ends, then the table waits for a player.
UNATTENDED_HOLD = frozenset({DEADLINE_COMMANDS["round"]})


_Decision = Decision[TjugoettState]


# -- drawing (R-21-20, R-21-21, R-21-22) ----------------------------------------------------


def _draw(decision: _Decision, for_whom: str) -> str | None:
    """The top card of the draw pile (R-21-20), rebuilding the pile first when one card is
    left (R-21-21); None after recording the end of the round when no card can be drawn
    (R-21-22)."""
    state = decision.state
    if len(state.draw_pile) <= 1 and state.discard_pile:
        kept, added = len(state.draw_pile), len(state.discard_pile)
        label = reshuffle_label(state.round, state.reshuffles + 1)
        order = shuffled(state.draw_pile + state.discard_pile, state.options.seed, label)
        decision.emit("DiscardsReshuffled", order=order, kept=kept, added=added, rule="R-21-21")
        state = decision.state
    if len(state.draw_pile) <= 1:
        decision.emit(
            "DrawFailed",
            for_whom=for_whom,
            draw_pile=len(state.draw_pile),
            discard_pile=len(state.discard_pile),
            message=f"no card can be drawn for {for_whom}: the draw pile holds "
            f"{len(state.draw_pile)} card(s) and the discard pile is empty",
            rule="R-21-22",
        )
        _end_round(decision, "no_card_to_draw", "R-21-22")
        return None
    return state.draw_pile[0]


def _deal_to_player(decision: _Decision, seat: str, rule: str) -> bool:
    """One card to a player's hand; False when the round ended for want of a card."""
    card = _draw(decision, seat)
    if card is None:
        return False
    options = decision.state.options
    cards = decision.state.cards_of(seat) + (card,)
    decision.emit(
        "CardDealt",
        seat=seat,
        card=card,
        cards=len(cards),
        sum=hand_value(cards),
        public_hands=options.public_hands,  # who may see it: see tjugoett.view
        dealer_seat=options.dealer_seat,
        rule=rule,
    )
    return True


# -- turns and rounds -----------------------------------------------------------------------


def _end_round(decision: _Decision, reason: str, rule: str) -> None:
    state = decision.state
    decision.emit(
        "RoundEnded",
        round=state.round,
        reason=reason,
        results={result.seat: result.winner for result in state.results},
        tally=state.tally_data(),
        rule=rule,
    )


def _next_turn(decision: _Decision) -> None:
    """R-21-5/6: the next seat in order faces the dealer, starting with its second card;
    a hand that decides at once (R-21-7..9) is settled and the next seat goes on."""
    while decision.state.in_round:
        seat = decision.state.next_seat()
        if seat is None:
            _end_round(decision, "all_played", "R-21-5")
            return
        decision.emit("TurnStarted", seat=seat, rule="R-21-5")
        if not _deal_to_player(decision, seat, "R-21-6"):
            return
        verdict = player_verdict(decision.state.cards_of(seat))
        if verdict is None:
            return  # the player decides
        _settle(decision, seat, verdict)


def _settle(decision: _Decision, seat: str, verdict: Verdict) -> None:
    """Record a turn's outcome, then the player's cards and the dealer's (if any) go to the
    discard pile (R-21-12, R-21-13)."""
    state = decision.state
    player_cards, dealer_cards = state.cards_of(seat), state.dealer_cards
    decision.emit(
        "TurnSettled",
        seat=seat,
        winner=verdict.winner,
        reason=verdict.reason,
        player_cards=list(player_cards),
        player_sum=hand_value(player_cards),
        dealer_cards=list(dealer_cards),
        dealer_sum=hand_value(dealer_cards) if dealer_cards else None,
        rule=verdict.rule,
    )
    decision.emit("CardsDiscarded", holder=seat, cards=list(player_cards), rule="R-21-12")
    if dealer_cards:
        decision.emit("CardsDiscarded", holder=DEALER, cards=list(dealer_cards), rule="R-21-13")


def _finish_turn(decision: _Decision, seat: str, verdict: Verdict) -> None:
    _settle(decision, seat, verdict)
    _next_turn(decision)


def _turn_seat(decision: _Decision) -> str:
    seat = decision.state.turn
    assert seat is not None, "the command's phase guarantees a turn"
    return seat


def _dealer_takes(decision: _Decision) -> None:
    """R-21-14: the dealer draws (only after a stand: the phase guarantees it); 21, bust or
    five cards decide at once (R-21-15..17)."""
    seat = _turn_seat(decision)
    card = _draw(decision, DEALER)
    if card is None:
        return
    cards = decision.state.dealer_cards + (card,)
    decision.emit(
        "DealerCardDealt", card=card, cards=len(cards), sum=hand_value(cards), rule="R-21-14"
    )
    verdict = dealer_verdict(cards)
    if verdict is not None:
        _finish_turn(decision, seat, verdict)


def _dealer_stands(decision: _Decision) -> None:
    """The dealer stands; only now may the player's hand be shown (R-21-19), and R-21-18
    judges the turn."""
    seat = _turn_seat(decision)
    cards = decision.state.dealer_cards
    decision.emit("DealerStood", cards=len(cards), sum=hand_value(cards), rule="R-21-19")
    verdict = stand_verdict(hand_value(cards), hand_value(decision.state.cards_of(seat)))
    _finish_turn(decision, seat, verdict)


# -- handlers (decision, command, acting seat or None) ----------------------------------------


def _start_round(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-21-3: the deck shuffled becomes the draw pile (the discard pile is empty); R-21-4:
    every player gets one card. The order is the seed's (`cards.shuffled`) unless the
    director or proctor gives one (`order`: the 52 codes, top first), and it is recorded."""
    state = decision.state
    number = state.round + 1
    order = command.args.get("order")
    if order is None:
        order = shuffled(DECK, state.options.seed, round_label(number))
    elif command.actor.role not in OFFICIALS:
        raise refuse("not_allowed", "start_round: only the director or proctor gives an order")
    elif not is_deck_order(order):
        raise refuse("bad_args", "start_round: 'order' is the 52 card codes, each once (R-21-1)")
    decision.emit("RoundStarted", round=number, order=list(order), rule="R-21-3")
    for player in state.options.seat_ids():
        if not _deal_to_player(decision, player, "R-21-4"):
            return
    _next_turn(decision)


def _draw_card(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-21-10: under 21 with fewer than five cards (always so while the player is asked),
    the player asks for another card."""
    assert seat is not None
    if not _deal_to_player(decision, seat, "R-21-10"):
        return
    verdict = player_verdict(decision.state.cards_of(seat))
    if verdict is not None:
        _finish_turn(decision, seat, verdict)


def _player_stands(decision: _Decision, seat: str, cause: str) -> None:
    """R-21-11: with at least two cards under 21 (always so while the player is asked), the
    player stands; the dealer's turn follows (R-21-14). The sum is hidden from the dealer."""
    options = decision.state.options
    cards = decision.state.cards_of(seat)
    decision.emit(
        "PlayerStood",
        seat=seat,
        cards=len(cards),
        sum=hand_value(cards),
        cause=cause,
        public_hands=options.public_hands,
        dealer_seat=options.dealer_seat,
        rule="R-21-11",
    )


def _stand(decision: _Decision, command: Command, seat: str | None) -> None:
    assert seat is not None
    _player_stands(decision, seat, "player")


def _dealer_draw(decision: _Decision, command: Command, seat: str | None) -> None:
    _dealer_takes(decision)


def _dealer_stand(decision: _Decision, command: Command, seat: str | None) -> None:
    """Decision: the dealer stands with at least two cards, as a player does (R-21-11)."""
    if len(decision.state.dealer_cards) < MIN_STAND_CARDS:
        raise refuse(
            "too_few_cards", f"the dealer holds {len(decision.state.dealer_cards)} card(s)"
        )
    _dealer_stands(decision)


def _dealer_play(decision: _Decision, command: Command, seat: str | None) -> None:
    """The server's move for the dealer: stand at `dealer_stands_at` or more with at least
    two cards, else draw (`cards.server_dealer_stands`, which sees the dealer's cards only)."""
    if server_dealer_stands(decision.state.dealer_cards, decision.state.options.dealer_stands_at):
        _dealer_stands(decision)
    else:
        _dealer_takes(decision)


def _turn_deadline(decision: _Decision, command: Command, seat: str | None) -> None:
    """`turn_seconds` passed without a move: the player stands (always allowed when asked)."""
    _player_stands(decision, _turn_seat(decision), "turn_seconds")


def _end_table(decision: _Decision, command: Command, seat: str | None) -> None:
    """The director ends the table (a round in play ends first, its open turns unjudged)."""
    if decision.state.in_round:
        _end_round(decision, "ended_by_director", "")
    state = decision.state
    decision.emit("TableEnded", rounds=state.round, tally=state.tally_data())


# -- the table of commands -------------------------------------------------------------------

PLAYING = (PLAYER_TURN, DEALER_TURN)
Handler = Callable[[_Decision, Command, "str | None"], None]


def _sent_by(sender: str, phases: tuple[str, ...], handler: Handler) -> Rule[_Decision]:
    """A command a kind of sender sends (`tjugoett/senders.py`), in these phases."""
    return Rule(SENDER_ROLES[sender], phases, handler, sender=sender)


COMMANDS: dict[str, Rule[_Decision]] = {
    "start_round": _sent_by(OFFICIAL_OR_DEALER, (BETWEEN_ROUNDS,), _start_round),
    "draw_card": _sent_by(TURN_PLAYER, (PLAYER_TURN,), _draw_card),
    "stand": _sent_by(TURN_PLAYER, (PLAYER_TURN,), _stand),
    "dealer_draw": _sent_by(PERSON_DEALER, (DEALER_TURN,), _dealer_draw),
    "dealer_stand": _sent_by(PERSON_DEALER, (DEALER_TURN,), _dealer_stand),
    "dealer_play": _sent_by(TIMER, (DEALER_TURN,), _dealer_play),
    "turn_deadline": _sent_by(TIMER, (PLAYER_TURN,), _turn_deadline),
    "end_table": _sent_by(OFFICIAL, (BETWEEN_ROUNDS, *PLAYING), _end_table),
}
# Checks run in this order: the command, its arguments map, a timer's key (which implies the
# phase), the sender (`senders.acting_seat`), the phase, then the handler's own.
GAME = Kit(
    COMMANDS,
    refuse,
    EVOLVERS,
    _Decision,
    ("args", "deadline", "sender", "phase"),
    phase_refusal=phase_refusal,
    sender=acting_seat,
    deadlines=deadlines,
    deadline_commands=DEADLINE_COMMANDS,
)
decide, evolve, COMMANDS_BY_ROLE = GAME.decide, GAME.evolve, GAME.commands_by_role
