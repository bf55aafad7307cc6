"""Kortspillet 24 with an ordinary 40-card deck (R-DECK40-1..7) as a Decider.

This module is the game's face for the shell (see /work/coord/GAME_CONTRACT.md and
`server.games.base.Game`): `NAME`, `DEFAULT_OPTIONS`, `initial_state`, `decide`, `evolve`,
`deadlines`, `view`, `event_view`, `is_over`, `FINAL_EVENTS`, `EVENT_TYPES`,
`COMMANDS_BY_ROLE`, `RECOVERY_COMMAND`. It holds `decide`, the one place that judges a
command (built by the game kit, `server.games.kit`, from the table `COMMANDS` below). The
state and its evolvers live in `deck40/state.py`, the cards, options and layouts in
`deck40/options.py`, refusal codes in `deck40/refusals.py`, what each viewer sees in
`deck40/view.py`.

Rules this file keeps (each cited where it is enforced):
- R-DECK40-1: real playing cards in the log (name, suit, rank; ace = 1); `start_game`
  records the shuffle and the deal; each set of four is turned up from the piles (two each
  with 2 players, one each with 4) or by the dealer from the common pile (R-DECK40-5).
- R-DECK40-2: "24!" (`call_24`) with a spoken solution, a free-form expression judged exactly
  (`check_expression`: brackets, every number once, numbers never joined). Right takes the
  four cards; wrong excludes that player from these four cards. A call may name the set it
  answers (`set`, as the view shows it); one that crossed a deal is refused (`stale_set`),
  never judged on cards its player did not see (our decision).
- R-DECK40-3: "no solution" (`call_no_solution`) is agreed when every player still in the set
  has called it (an excluded player's agreement is not needed; if nobody is left it is agreed
  at once). Advanced scoring: a solution found after *another* player called "no solution"
  scores 2 (our decision: the caller who finds one himself scores 1, he refuted nobody).
- R-DECK40-4: after the agreement each player returns one of his face-up cards (his choice,
  given with his call; default the first) to the bottom of his pile and turns up a new one.
  R-DECK40-5: with the common pile the first two cards go back and two new ones come up.
- R-DECK40-6: simple (1 point), advanced (1 or 2), card version (no points; when a player
  cannot turn up, fewest cards left wins; as written both piles stay equal, so two players tie
  and `tie` says so). The house option `house_loser_takes` (two players) puts the four cards
  at the bottom of the loser's pile instead, which makes the card version decisive. The game
  ends at `target_points`, when the cards run out, or when a player cannot turn up; and (our
  decision, R-DECK40-4) when more "no solution" agreements in a row than cards still in play
  show that every remaining card has come round without a solution (`no_solution_left`).
- R-DECK40-7: with `reveal_unsolvable` the server says, at an agreed "no solution", whether
  the four cards had a solution (and one, if so); off by default.

HIDDEN: every face-down card: the order of each player's own pile and of the common pile, and
the shuffle or seed in the options. Players and spectators see pile sizes only, in `view` and
in every pushed event (`GameStarted` and `TableCreated` carry counts for them). The four cards
on the table and won cards are face up. Proctor, director, auditors and the server see all.
"""

from __future__ import annotations

from server.games.base import Command, Decision
from server.games.deck40.options import DEFAULT_OPTIONS as DEFAULT_OPTIONS
from server.games.deck40.options import card_data, rank, the_deck
from server.games.deck40.refusals import REFUSALS as REFUSALS
from server.games.deck40.refusals import phase_refusal, refuse
from server.games.deck40.state import EVENT_TYPES as EVENT_TYPES
from server.games.deck40.state import EVOLVERS, PLAYING, SETUP, Deck40State, deal
from server.games.deck40.state import FINAL_EVENTS as FINAL_EVENTS
from server.games.deck40.state import deadlines as deadlines
from server.games.deck40.state import initial_state as initial_state
from server.games.deck40.state import is_over as is_over
from server.games.deck40.view import event_view as event_view
from server.games.deck40.view import secrets as secrets
from server.games.deck40.view import view as view
from server.games.kit import PLAYER, Kit, Rule
from server.puzzles.expressions import check_expression
from server.puzzles.solver import solve

NAME = "deck40"
RECOVERY_COMMAND: str | None = None  # no timers: nothing to pause or restart after a server restart
SEED_OPTION: str | None = "seed"  # left out: the shell draws one (base.SEED_OPTION)


_Decision = Decision[Deck40State]


# -- consequences shared by several commands --------------------------------------------------


def _end_game(decision: _Decision, reason: str) -> None:
    """R-DECK40-6: most points wins (simple, advanced), fewest cards left (card version);
    every seat sharing the best is a winner, and `tie` reports a shared win honestly."""
    state, options = decision.state, decision.state.options
    scores, left = state.scores(), state.cards_left()
    if options.scoring == "cards":
        best = min(left.values())
        winners = [seat for seat, count in left.items() if count == best]
    else:
        best = max(scores.values())
        winners = [seat for seat, score in scores.items() if score == best]
    decision.emit(
        "GameEnded",
        reason=reason,
        scoring=options.scoring,
        scores=scores,
        cards_left=left,
        won={seat.seat: len(seat.won) for seat in state.seats},
        winners=winners,
        tie=len(winners) > 1,
        rule="R-DECK40-6",
    )


def _turn_up(decision: _Decision, count: int, rule: str) -> None:
    """Turn up `count` cards from the common pile (the dealer's layout, R-DECK40-5), or
    `count` from each player's own pile, in seat order (R-DECK40-1)."""
    state = decision.state
    if state.options.layout == "common_pile":
        cards = [{**card_data(card), "seat": None} for card in state.common[:count]]
    else:
        cards = [
            {**card_data(card), "seat": seat.seat}
            for seat in state.seats
            for card in seat.pile[:count]
        ]
    decision.emit("CardsTurnedUp", set=state.set_number + 1, cards=cards, rule=rule)


def _next_set(decision: _Decision) -> None:
    """Turn up four fresh cards (R-DECK40-1, R-DECK40-5), or end the game: the cards are used
    up, or a player cannot turn up his cards (R-DECK40-6)."""
    state, options = decision.state, decision.state.options
    if options.layout == "common_pile":
        if len(state.common) < 4:
            _end_game(decision, "cards_out")
        else:
            _turn_up(decision, 4, "R-DECK40-5")
        return
    piles = [len(seat.pile) for seat in state.seats]
    if min(piles) < options.per_player:
        _end_game(decision, "cards_out" if max(piles) == 0 else "cannot_turn_up")
    else:
        _turn_up(decision, options.per_player, "R-DECK40-1")


def _agree_no_solution(decision: _Decision, reason: str) -> None:
    """R-DECK40-3/4/5/7: the agreed "no solution": optionally confirmed by the solver, then
    cards go back to the bottom and new ones come up."""
    state, options = decision.state, decision.state.options
    numbers = [rank(on.card) for on in state.table]
    solutions = solve(numbers) if options.reveal_unsolvable else None
    decision.emit(
        "NoSolutionAgreed",
        set=state.set_number,
        reason=reason,
        solvable=None if solutions is None else bool(solutions),
        example=solutions[0].ascii_expression if solutions else None,
        rule="R-DECK40-7" if options.reveal_unsolvable else "R-DECK40-3",
    )
    if options.layout == "common_pile":
        returns = [{"card": on.card, "seat": None} for on in state.table[:2]]
    else:
        returns = [
            {
                "card": state.no_solution.get(seat.seat) or state.visible_of(seat.seat)[0],
                "seat": seat.seat,
            }
            for seat in state.seats
        ]
    common = options.layout == "common_pile"
    rule = "R-DECK40-5" if common else "R-DECK40-4"
    decision.emit("CardsReturned", set=state.set_number, returns=returns, rule=rule)
    if decision.state.agreed_in_a_row > decision.state.cards_in_play():
        # Every card still in play has come round without a solution: the same sets would
        # only come up again (our decision; the source leaves the players to stop).
        _end_game(decision, "no_solution_left")
        return
    _turn_up(decision, 2 if common else 1, rule)


def _settle(decision: _Decision) -> None:
    state = decision.state
    playing = state.still_playing()
    if not playing:
        _agree_no_solution(decision, "all_excluded")
    elif set(playing) <= set(state.no_solution):
        _agree_no_solution(decision, "all_called")


# -- handlers (decision, command, acting seat or None) ----------------------------------------


def _start_game(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-DECK40-1: the shuffle is recorded and the cards dealt (face down); the first set
    turns up."""
    options = decision.state.options
    deck = the_deck(options)
    piles, common = deal(options, deck)
    decision.emit(
        "GameStarted",
        deck=list(deck),
        layout=options.layout,
        piles=piles,
        common=common,
        options=options.public_data(),
        rule="R-DECK40-5" if options.layout == "common_pile" else "R-DECK40-1",
    )
    _next_set(decision)


def _call_24(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-DECK40-2/3/6: "24!" and the solution aloud; right takes the set, wrong excludes.
    A call for another set than the one on the table is refused (`Refusals.set_arg`)."""
    assert seat is not None
    state, options = decision.state, decision.state.options
    refuse.set_arg(command, state.set_number, "set")
    if seat in state.excluded:
        raise refuse("excluded", f"seat {seat} is out of set {state.set_number} (R-DECK40-2)")
    expression = refuse.text_arg(command, "expression")
    cards = [on.card for on in state.table]
    verdict = check_expression([rank(card) for card in cards], expression)
    decision.emit(
        "SolutionCalled",
        seat=seat,
        expression=expression,
        ok=verdict.ok,
        reason=verdict.reason,
        message=verdict.message,
        set=state.set_number,
        rule="R-DECK40-2",
    )
    if not verdict.ok:
        decision.emit("PlayerExcluded", seat=seat, set=state.set_number, rule="R-DECK40-2")
        _settle(decision)
        return
    refuted = any(caller != seat for caller in state.no_solution)
    points = {"simple": 1, "advanced": 2 if refuted else 1, "cards": 0}[options.scoring]
    loser = None
    if options.house_loser_takes:
        loser = next(other.seat for other in state.seats if other.seat != seat)
    decision.emit(
        "RoundWon",
        seat=seat,
        cards=cards,
        points=points,
        after_no_solution=refuted,
        taken_by=loser,
        set=state.set_number,
        rule="R-DECK40-6" if loser or options.scoring == "cards" else "R-DECK40-3",
    )
    target = options.target_points
    if target is not None and decision.state.scores()[seat] >= target:
        _end_game(decision, "target_points")
    else:
        _next_set(decision)


def _call_no_solution(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-DECK40-3/4: "no solution", with the card this player will return if all agree; one
    sent for another set than the one on the table is refused (`Refusals.set_arg`)."""
    assert seat is not None
    state = decision.state
    refuse.set_arg(command, state.set_number, "set")
    if seat in state.excluded:
        raise refuse("excluded", f"seat {seat} is out of set {state.set_number} (R-DECK40-2)")
    if seat in state.no_solution:
        raise refuse("already_called", f"seat {seat} already called 'no solution'")
    returns = command.args.get("returns")
    if state.options.layout == "common_pile":
        if returns is not None:
            raise refuse("bad_args", "with the common pile the dealer returns two (R-DECK40-5)")
    elif returns is None:
        returns = state.visible_of(seat)[0]
    elif returns not in state.visible_of(seat):
        raise refuse("not_your_card", f"{returns!r} is not one of seat {seat}'s face-up cards")
    decision.emit(
        "NoSolutionCalled", seat=seat, returns=returns, set=state.set_number, rule="R-DECK40-3"
    )
    _settle(decision)


def _end_game_command(decision: _Decision, command: Command, seat: str | None) -> None:
    """The director (or proctor) ends the game early; it is scored as it stands."""
    _end_game(decision, "ended_by_director")


# -- the table of commands -------------------------------------------------------------------

STEWARDS = frozenset({"proctor", "director"})
SEATED = frozenset({PLAYER})

COMMANDS: dict[str, Rule[_Decision]] = {
    "start_game": Rule(STEWARDS | SEATED, (SETUP,), _start_game, seated=True),
    "call_24": Rule(SEATED, (PLAYING,), _call_24, seated=True),
    "call_no_solution": Rule(SEATED, (PLAYING,), _call_no_solution, seated=True),
    "end_game": Rule(STEWARDS, (SETUP, PLAYING), _end_game_command),
}
# Checks run in this order: the command, its arguments map, the sender, a player's seat, the
# phase, then the handler's own.
GAME = Kit(
    COMMANDS,
    refuse,
    EVOLVERS,
    _Decision,
    ("args", "sender", "seat", "phase"),
    phase_refusal=phase_refusal,
)
decide, evolve, COMMANDS_BY_ROLE = GAME.decide, GAME.evolve, GAME.commands_by_role
