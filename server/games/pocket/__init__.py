"""The pocket edition's casual play (R-POCKET-1..5) as a Decider: everybody plays the same top
card at once; first right answer wins its dots.

This module is the game's face for the shell (see /work/coord/GAME_CONTRACT.md and
`server.games.base.Game`): `NAME`, `DEFAULT_OPTIONS`, `initial_state`, `decide`, `evolve`,
`deadlines`, `view`, `event_view`, `is_over`, `FINAL_EVENTS`, `EVENT_TYPES`,
`COMMANDS_BY_ROLE`, `RECOVERY_COMMAND`, and `check_new_table` (R-PUZ-4: a given stack's
cards have a solution, judged when a table is created, `pocket/options.py`). It holds
`decide`, the one place that judges a command (built by the game kit, `server.games.kit`,
from the table `COMMANDS` below). The state and its evolvers live in `pocket/state.py`, the
options and the stack in `pocket/options.py`, refusal codes in `pocket/refusals.py`, what
each viewer sees in `pocket/view.py`.

Rules this file keeps (each cited where it is enforced):
- R-POCKET-1: `start_game` records the stack (given, or drawn from an edition) and turns up
  its top card; 1 player (practice) up to 8 play the same card at once.
- R-POCKET-2: an answer is a free-form expression judged exactly (`check_expression`): every
  card number once, + − × ÷ and brackets, 24. Right wins the card's dots.
- R-POCKET-3: `claim` ("I got it") holds the card for `answer_seconds`; a wrong or late answer
  excludes that player from this card only and the others play on. `answer` without a claim
  claims and answers at once. Simultaneous claims: arrival order (the shell calls `decide`
  in arrival order); a claim while another runs is refused `claim_in_progress`. A claim,
  answer or stumped declaration may name the card it is for (`set`: the card's `number`);
  one that crossed the next card's turn-up is refused (`stale_set`), never judged on a card
  its player did not see (our decision).
- R-POCKET-4: when every player still in the card has declared stumped (or nobody is left, or
  the optional `stumped_seconds` runs out), the card is set aside as a bonus card; the winner
  of the next card also takes the bonus cards waiting and their dots (our reading of the
  illegible card text). Bonus cards left at the end are reported unclaimed.
- R-POCKET-5: the game ends when the stack is used up; most points wins; ties are reported as
  ties (`winners` lists every seat with the top score).
- Pausing (`pause_game`, the shell's `RECOVERY_COMMAND` after a restart, or the director's):
  no timer runs; any player or the director resumes and the live windows restart in full.

HIDDEN: the stack (which cards are still to come, and their order) and the options that give
it (`stack`, `seed`) are hidden from players and spectators, in `view` and in every pushed
event (`GameStarted.stack`, `GameEnded.unplayed` and `TableCreated.options` become counts).
The top card, the bonus pile and won cards are face up. The proctor, director, auditors and
the server see everything.
"""

from __future__ import annotations

from server.games.base import Command, Decision
from server.games.kit import PLAYER, TIMER, Hold, Kit, Rule
from server.games.pocket.options import DEFAULT_OPTIONS as DEFAULT_OPTIONS
from server.games.pocket.options import check_new_table as check_new_table
from server.games.pocket.options import decks_drawn as decks_drawn
from server.games.pocket.options import the_stack
from server.games.pocket.refusals import REFUSALS as REFUSALS
from server.games.pocket.refusals import phase_refusal, refuse
from server.games.pocket.state import (
    CLAIMED,
    DEADLINE_COMMANDS,
    EVOLVERS,
    OPEN,
    SETUP,
    PocketState,
    TopCard,
)
from server.games.pocket.state import EVENT_TYPES as EVENT_TYPES
from server.games.pocket.state import FINAL_EVENTS as FINAL_EVENTS
from server.games.pocket.state import deadlines as deadlines
from server.games.pocket.state import initial_state as initial_state
from server.games.pocket.state import is_over as is_over
from server.games.pocket.view import event_view as event_view
from server.games.pocket.view import secrets as secrets
from server.games.pocket.view import view as view
from server.puzzles.expressions import check_expression

NAME = "pocket"
RECOVERY_COMMAND: str | None = "pause_game"
SEED_OPTION: str | None = "seed"  # left out: the shell draws one (base.SEED_OPTION)


class _Decision(Decision[PocketState]):
    """A pocket command's events so far (`base.Decision`)."""

    @property
    def card(self) -> TopCard:
        """The top card (the command's phase guarantees one)."""
        assert self.state.card is not None, "the phase guarantees a top card"
        return self.state.card


# -- consequences shared by several commands --------------------------------------------------


def _next_card(decision: _Decision) -> None:
    """After a card is resolved: turn up the next one, or end the game (R-POCKET-5)."""
    state = decision.state
    if not state.stack:
        _end_game(decision, "stack_used_up")
        return
    top = state.stack[0]
    decision.emit(
        "CardTurnedUp",
        card_id=top.card_id,
        numbers=list(top.numbers),
        dots=top.dots,
        number=state.turned + 1,
        left=len(state.stack) - 1,
        rule="R-POCKET-1",
    )


def _end_game(decision: _Decision, reason: str) -> None:
    """R-POCKET-5: most points wins; every seat with the top score is a winner (a tie)."""
    state = decision.state
    scores = state.scores()
    best = max(scores.values())
    winners = [seat for seat, score in scores.items() if score == best]
    unplayed = ([state.card.card.card_id] if state.card else []) + [c.card_id for c in state.stack]
    decision.emit(
        "GameEnded",
        reason=reason,
        scores=scores,
        winners=winners,
        tie=len(winners) > 1,
        unclaimed_bonus=[card.card_id for card in state.bonus],
        unplayed=unplayed,
        rule="R-POCKET-5",
    )


def _set_aside(decision: _Decision, reason: str) -> None:
    """R-POCKET-4: the card stumped everybody; it waits as a bonus card."""
    card = decision.card
    decision.emit(
        "CardSetAside",
        card_id=card.card.card_id,
        dots=card.card.dots,
        number=card.number,
        reason=reason,
        rule="R-POCKET-4",
    )
    _next_card(decision)


def _settle(decision: _Decision) -> None:
    """After an exclusion or a stumped declaration: nobody left to play the card, or every
    player still in it agrees it stumps them, sets it aside (R-POCKET-3, R-POCKET-4)."""
    card = decision.card
    if card.claimer is not None:
        return
    playing = decision.state.still_playing()
    if not playing:
        _set_aside(decision, "all_excluded")
    elif set(playing) <= set(card.stumped):
        _set_aside(decision, "all_stumped")


def _exclude(decision: _Decision, seat: str, reason: str) -> None:
    decision.emit(
        "PlayerExcluded", seat=seat, reason=reason, number=decision.card.number, rule="R-POCKET-3"
    )
    _settle(decision)


def _claimable(decision: _Decision, seat: str) -> TopCard:
    card = decision.card
    if seat in card.excluded:
        raise refuse("excluded", f"seat {seat} is out of card {card.number} (R-POCKET-3)")
    if card.claimer == seat:
        raise refuse("already_claimed", f"seat {seat}'s claim is running; answer it")
    if card.claimer is not None:
        raise refuse("claim_in_progress", f"seat {card.claimer} claimed card {card.number} first")
    return card


# -- handlers (decision, command, acting seat or None) ----------------------------------------


def _start_game(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-POCKET-1: the stack is counted off and recorded in order; its top card turns up."""
    options = decision.state.options
    decision.emit(
        "GameStarted",
        stack=[card.as_data() for card in the_stack(options)],
        options=options.public_data(),
        rule="R-POCKET-1",
    )
    _next_card(decision)


def _claim(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-POCKET-3: "I got it": the first claim holds the card for `answer_seconds`; a claim
    for another card than the one up is refused (`Refusals.set_arg`)."""
    assert seat is not None
    refuse.set_arg(command, decision.card.number, "card")
    card = _claimable(decision, seat)
    decision.emit("ClaimMade", seat=seat, number=card.number, rule="R-POCKET-3")


def _answer(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-POCKET-2/3: the claimer's answer (claiming first if nobody holds the card), judged
    exactly; right wins the card and the bonus cards waiting (R-POCKET-4), wrong excludes.
    An answer for another card than the one up is refused (`Refusals.set_arg`)."""
    assert seat is not None
    refuse.set_arg(command, decision.card.number, "card")
    expression = refuse.text_arg(command, "expression")
    card = decision.card
    if card.claimer == seat:
        if decision.now >= card.claim_at + decision.state.options.answer_us:
            late = f"card {card.number}: the answer came after its window (R-POCKET-3)"
            raise refuse("too_late", late)
    else:
        _claim(decision, command, seat)
        card = decision.card
    verdict = check_expression(card.card.numbers, expression)
    decision.emit(
        "AnswerJudged",
        seat=seat,
        expression=expression,
        ok=verdict.ok,
        reason=verdict.reason,
        message=verdict.message,
        number=card.number,
        rule="R-POCKET-2",
    )
    if not verdict.ok:
        _exclude(decision, seat, "wrong")
        return
    bonus = decision.state.bonus
    bonus_dots = sum(c.dots for c in bonus)
    decision.emit(
        "CardWon",
        seat=seat,
        card_id=card.card.card_id,
        dots=card.card.dots,
        bonus=[c.card_id for c in bonus],
        bonus_dots=bonus_dots,
        points=card.card.dots + bonus_dots,
        number=card.number,
        rule="R-POCKET-4" if bonus else "R-POCKET-2",
    )
    _next_card(decision)


def _declare_stumped(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-POCKET-4: "all players must agree": each still in the card declares it; a
    declaration for another card than the one up is refused (`Refusals.set_arg`)."""
    assert seat is not None
    card = decision.card
    refuse.set_arg(command, card.number, "card")
    if seat in card.excluded:
        raise refuse("excluded", f"seat {seat} is out of card {card.number} (R-POCKET-3)")
    if seat in card.stumped:
        raise refuse("already_stumped", f"seat {seat} already declared stumped")
    if card.claimer == seat:
        raise refuse("already_claimed", f"seat {seat}'s claim is running; answer it")
    decision.emit("StumpedDeclared", seat=seat, number=card.number, rule="R-POCKET-4")
    _settle(decision)


def _end_game_command(decision: _Decision, command: Command, seat: str | None) -> None:
    """The director (or proctor) ends the game early; the scores so far stand."""
    _end_game(decision, "ended_by_director")


def _answer_deadline(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-POCKET-3: no answer in time: the claimer is out of this card."""
    claimer = decision.card.claimer
    assert claimer is not None
    _exclude(decision, claimer, "late")


def _stumped_deadline(decision: _Decision, command: Command, seat: str | None) -> None:
    """R-POCKET-4 (table option `stumped_seconds`): nobody solved it in time."""
    _set_aside(decision, "timeout")


def _pause_game(decision: _Decision, command: Command, seat: str | None) -> None:
    """No timer runs while paused: the shell pauses after a restart (`RECOVERY_COMMAND`), so
    nobody is excluded for the time the server was down; the director may pause too."""
    if decision.state.paused:
        raise refuse("already_paused", f"paused since: {decision.state.pause_cause}")
    decision.emit("GamePaused", cause=refuse.cause_arg(command, "director"))


def _resume_game(decision: _Decision, command: Command, seat: str | None) -> None:
    """Any player (or the director) resumes; the live windows restart in full."""
    if not decision.state.paused:
        raise refuse("not_paused", "the game is not paused")
    decision.emit("GameResumed", cause=decision.state.pause_cause)


# -- the table of commands -------------------------------------------------------------------

PLAYERS = frozenset({PLAYER})
STEWARDS = frozenset({"proctor", "director"})
PLAYING = (OPEN, CLAIMED)
PAUSED = ("paused",)

COMMANDS: dict[str, Rule[_Decision]] = {
    "start_game": Rule(STEWARDS | PLAYERS, (SETUP,), _start_game),
    "claim": Rule(PLAYERS, PLAYING, _claim, seated=True),
    "answer": Rule(PLAYERS, PLAYING, _answer, seated=True),
    "declare_stumped": Rule(PLAYERS, PLAYING, _declare_stumped, seated=True),
    "end_game": Rule(STEWARDS, (SETUP, *PLAYING), _end_game_command, passes=PAUSED),
    "pause_game": Rule(STEWARDS | TIMER, PLAYING, _pause_game, passes=PAUSED),
    "resume_game": Rule(STEWARDS | PLAYERS, PLAYING, _resume_game, passes=PAUSED),
    "answer_deadline": Rule(TIMER, (CLAIMED,), _answer_deadline),
    "stumped_deadline": Rule(TIMER, (OPEN,), _stumped_deadline),
}
# Checks run in this order: the command, its arguments map, the sender, a player's seat, a
# timer's key (which implies the phase and no pause), the phase, the pause, then the
# handler's own.
GAME = Kit(
    COMMANDS,
    refuse,
    EVOLVERS,
    _Decision,
    ("args", "sender", "seat", "deadline", "phase", "paused"),
    holds=(Hold("paused", lambda state: state.paused, "game_paused", "the game is paused"),),
    phase_refusal=phase_refusal,
    deadlines=deadlines,
    deadline_commands=DEADLINE_COMMANDS,
)
decide, evolve, COMMANDS_BY_ROLE = GAME.decide, GAME.evolve, GAME.commands_by_role
