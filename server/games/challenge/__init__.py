"""The 24 Challenge tournament table (R-PUZ, R-DECK-4, R-PLAY, R-FLAG, R-ROUND-1) as a Decider.

This module is the game's face for the shell (`server.games.base.Game`): `NAME`,
`initial_state`, `decide`, `evolve`, `deadlines`, `view`, `event_view`, `is_over`,
`FINAL_EVENTS`, `EVENT_TYPES`, `DEFAULT_OPTIONS`, `RECOVERY_COMMAND`, `COMMANDS_BY_ROLE`. It
holds the command table `COMMANDS` the game kit (`server.games.kit`) builds `decide` from, the
only place that judges whether a command may happen and what follows from it.
The state's records live in `challenge/state.py`, the evolvers and the timers in
`challenge/evolvers.py`, the options and the deck in `challenge/options.py`, every refusal
code in `challenge/refusals.py`, who sends a student's command in `challenge/senders.py`, what
each viewer may see in `challenge/view.py`, the consequences several commands share (a flag,
a slap, the end of the round) in `challenge/consequences.py`, and the protests, rulings,
corrections and score card (R-ROUND-7, R-ROUND-8) in `challenge/protests.py`,
the wait for the students before the first card (`wait_for_students`) in `challenge/arrival.py`.
`query` answers questions that are never recorded (`preview_ruling`); `check_new_table` the
rules only a new table must meet (R-PUZ-4, `challenge/options.py`).

Rules this file keeps (every one of them is cited where it is enforced):
- Who may send what: the table `COMMANDS` below. In a `networked` table students send their
  own touches and answers; in a `proctored` table the proctor records them for a seat.
- When: each command names the phases it is allowed in (see `challenge/state.py`); a paused
  table refuses everything but resume, end, and a proctor's flag.
- The shell fires deadlines as ordinary commands from the `server` actor carrying the
  deadline's `key`; a key that is no longer live is refused as `stale_deadline`.
- Time: `now` is the server's arrival time in microseconds. The table's clock never runs
  backwards: a `now` earlier than the last recorded time counts as that time.
- Arrival order decides who touched first (R-PLAY-2): the shell calls `decide` in arrival
  order; each touch records its time. A table with `touch_compensation` instead grants the
  card to the earliest touch corrected for each connection's lag, after a short arbitration
  window (`challenge/arbitration.py`, issue 19).

How it works: a handler per command appends events to a `ChallengeDecision` (the kit's `Decision`),
which evolves its own copy of the state as it goes, so follow-ups (a flag that disqualifies,
a last card that ends the round) are judged on the state the earlier events of the same
command produced.

HIDDEN (what the game hides from whom, checked by tests/contract/test_game_contract.py):
players and spectators never see the deck order, the cards removed under R-DECK-4, the
unplayed cards at the end, nor a card's id, numbers or dots before it is revealed (a card
placed and returned unrevealed keeps its id hidden). Proctors, directors, auditors and the
server see everything (`challenge/view.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from server.games.base import Actor, Command
from server.games.challenge import arrival, variables_play
from server.games.challenge.arbitration import claim_touch, grant_first_touch
from server.games.challenge.arrival import presence_command as presence_command
from server.games.challenge.consequences import FLAG_CAUSES as FLAG_CAUSES
from server.games.challenge.consequences import (
    ChallengeDecision,
    disqualify_for_slap,
    end_round_now,
    flag,
    settle,
)
from server.games.challenge.evolvers import DEADLINE_COMMANDS, EVOLVERS, counted
from server.games.challenge.evolvers import EVENT_TYPES as EVENT_TYPES
from server.games.challenge.evolvers import FINAL_EVENTS as FINAL_EVENTS
from server.games.challenge.evolvers import deadlines as deadlines
from server.games.challenge.evolvers import initial_state as initial_state
from server.games.challenge.evolvers import is_over as is_over
from server.games.challenge.options import DEFAULT_OPTIONS as DEFAULT_OPTIONS
from server.games.challenge.options import MAX_NAME
from server.games.challenge.options import check_new_table as check_new_table
from server.games.challenge.protests import (
    file_protest,
    preview_of,
    reopen_score_card,
    rule_protest,
    sign_score_card,
)
from server.games.challenge.refusals import REFUSALS as REFUSALS
from server.games.challenge.refusals import phase_refusal, refuse
from server.games.challenge.senders import (
    PROCTORS,
    STUDENT,
    STUDENT_SENDERS,
    acting_seat,
    named_seat,
)
from server.games.challenge.state import (
    BETWEEN,
    ENDED,
    PLACED,
    REVEALED,
    RUNNING_PHASES,
    SETUP,
    SOLVING,
    CardInPlay,
    ChallengeState,
)
from server.games.challenge.view import event_view as event_view
from server.games.challenge.view import redaction_group as redaction_group
from server.games.challenge.view import secrets as secrets
from server.games.challenge.view import view as view
from server.games.challenge.view import view_group as view_group
from server.games.kit import TIMER, Handler, Hold, Kit, Rule
from server.puzzles.expressions import MAX_TEXT, PuzzleSyntaxError, parse_pattern

NAME = "challenge"


DIRECTOR = frozenset({"director"})
PROTESTERS = frozenset({"player"}) | PROCTORS  # a student for its own seat (R-ROUND-8)
HEARING = (*RUNNING_PHASES, ENDED)  # protests are heard until the score card is signed
MAX_FINGERTIPS = 10
# R-PLAY-3: a slap is a touch "with the entire hand": five fingertips. Four are "more than
# three": a flag, as any touch with too many fingertips.
SLAP_FINGERTIPS = 5


def measures_lag(state: ChallengeState) -> bool:
    """A table with `touch_compensation` judges touches by each player's lag (R-PLAY-2,
    issue 19): the shell measures its players once a second (server/net/lag.py)."""
    return state.options.touch_compensation


def _require_toucher(decision: ChallengeDecision, seat: str) -> CardInPlay:
    card = decision.card
    if card.toucher != seat:
        raise refuse("not_toucher", f"seat {seat} did not touch first; {card.toucher} did")
    return card


def _before(decision: ChallengeDecision, window_us: int, what: str, rule: str) -> None:
    """Refuse an answer that arrives when its window has closed (the deadline will fire)."""
    if decision.now >= decision.state.timer_from + window_us:
        raise refuse("too_late", f"{what} came after {window_us / 1e6:g} s ({rule})", rule)


# -- handlers (decision, command, acting seat or None) ----------------------------------------


def _start_round(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-DECK-4: a 3-student table removes two 2-dot cards (the two nearest the bottom)."""
    options = decision.state.options
    order = command.args.get("order")
    ids = [card.card_id for card in options.deck]
    if order is None:
        order = ids
    elif not isinstance(order, list | tuple) or sorted(map(repr, order)) != sorted(map(repr, ids)):
        raise refuse("bad_args", "start_round: 'order' is a permutation of the deck's card ids")
    removed: list[Any] = []
    if len(options.seats) == 3:
        for card_id in reversed(order):
            if len(removed) < 2 and options.card(card_id).dots == 2:
                removed.append(card_id)
    decision.emit(
        "RoundStarted",
        round=options.round,
        deck=[card_id for card_id in order if card_id not in removed],
        removed=removed,
        seats=[info.as_data() for info in options.seats],
        options=options.as_data(),
        rule="R-DECK-4" if removed else "R-ROUND-1",
    )
    settle(decision)


def _place_card(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-1: the top card goes into play, cupped (its numbers hidden from players)."""
    card = decision.state.options.card(decision.state.deck[0])
    decision.emit(
        "CardPlaced",
        card_id=card.card_id,
        **card.shown(),
        dots=card.dots,
        play=decision.state.plays + 1,
        rule="R-PLAY-1",
    )


def _reveal_card(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-1: the proctor withdraws the hand; the no-touch window (R-PLAY-7) opens."""
    card = decision.card
    decision.emit(
        "CardRevealed",
        card_id=card.card.card_id,
        **card.card.shown(),
        dots=card.card.dots,
        play=card.play,
        rule="R-PLAY-1",
    )


def _touch_card(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-2 (first touch holds the card, later ones are recorded and refused) and
    R-PLAY-3 (a touch before the reveal, or with more than three fingertips, draws a flag; a
    slap disqualifies), judged for every touch, first or later (decision 3)."""
    assert seat is not None
    fingertips = refuse.int_arg(command, "fingertips", 1, MAX_FINGERTIPS, 1)
    phase, card = decision.state.phase, decision.card
    if seat in card.touches:  # a later touch, or a claim awaiting the arbitration
        raise refuse("already_touched", f"seat {seat}'s touch on this card is recorded")
    compensated = phase == REVEALED and decision.state.options.touch_compensation
    if compensated and fingertips <= 3:
        claim_touch(decision, seat, fingertips, command)  # R-PLAY-2 under compensation
        return
    if phase == SOLVING or (compensated and card.claims):
        # Somebody holds the card (or has claimed it: the arbitration decides between the
        # claims only): a later touch is recorded and refused.
        decision.emit(
            "TouchRefused",
            seat=seat,
            fingertips=fingertips,
            play=card.play,
            reason="not_first",
            toucher=card.toucher,
            rule="R-PLAY-2",
        )
    else:
        decision.emit(
            "CardTouched", seat=seat, fingertips=fingertips, play=card.play, rule="R-PLAY-2"
        )
    _judge_fingertips(decision, seat, fingertips, phase)


def _judge_fingertips(decision: ChallengeDecision, seat: str, fingertips: int, phase: str) -> None:
    """R-PLAY-3, for any student's touch: the seed's causes name no first touch ("Student
    touches card with more than 3 fingertips", "Student touches proctor's hand before it is
    withdrawn"). A penalty on a bystander leaves the card with the student who holds it
    (decision 5, `decision._taken_from`)."""
    if fingertips >= SLAP_FINGERTIPS:
        disqualify_for_slap(decision, seat)
    elif phase == PLACED:
        flag(decision, seat, "touched_before_reveal")
    elif fingertips > 3:
        flag(decision, seat, "too_many_fingertips")


def _declare_pattern(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-4: the toucher announces the pattern within 3 s; R-PLAY-5: it cannot change."""
    assert seat is not None
    card = _require_toucher(decision, seat)
    if card.pattern is not None:
        raise refuse("pattern_cannot_change", f"the pattern {card.pattern!r} is declared")
    _before(decision, decision.state.options.pattern_us, "the pattern", "R-PLAY-4")
    text = refuse.text_arg(command, "pattern", MAX_TEXT)
    try:
        parsed = parse_pattern(text)
    except PuzzleSyntaxError as error:
        raise refuse("bad_pattern", f"pattern: {error.message}") from None
    decision.emit(
        "PatternDeclared",
        seat=seat,
        pattern=text,
        canonical=str(parsed),
        play=card.play,
        rule="R-PLAY-4",
    )


def _answering(decision: ChallengeDecision, seat: str | None) -> CardInPlay:
    """The card a toucher answers for, refused before the pattern or after 15 s (R-PLAY-5)."""
    assert seat is not None
    card = _require_toucher(decision, seat)
    if card.pattern is None:
        raise refuse("pattern_first", "announce the pattern before the steps (R-PLAY-4)")
    _before(decision, decision.state.options.solution_us, "the solution", "R-PLAY-5")
    return card


def _state_steps(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-5: steps may be stated and restated (each statement replaces the last)."""
    card = _answering(decision, seat)
    steps = refuse.steps_arg(command, variables_play.most_steps(card.card))
    x = variables_play.x_arg(command, card.card)
    decision.emit(
        "StepsStated",
        seat=seat,
        steps=list(steps),
        **variables_play.with_x(card.card, card.x if x is None else x),
        play=card.play,
        rule="R-PLAY-5",
    )


def _fix_solution(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-5/6, R-PUZ-2/3: the fixed solution is judged exactly; right wins the card's
    dots, wrong draws a flag (R-FLAG-1)."""
    card = _answering(decision, seat)
    steps = refuse.steps_arg(command, variables_play.most_steps(card.card), required=False)
    steps = steps or card.steps
    if not steps:
        raise refuse("no_steps", "state the steps before fixing the solution")
    x = variables_play.fixed_x(command, card.card, card.x)
    assert seat is not None and card.pattern is not None
    decision.emit(
        "SolutionFixed",
        seat=seat,
        steps=list(steps),
        **variables_play.with_x(card.card, x),
        play=card.play,
        rule="R-PLAY-5",
    )
    verdict = variables_play.judge(card.card, x, card.pattern, steps)
    decision.emit(
        "SolutionJudged",
        seat=seat,
        ok=verdict.ok,
        reason=verdict.reason,
        message=verdict.message,
        value=None if verdict.value is None else str(verdict.value),
        play=card.play,
        rule="R-PUZ-2",
    )
    if not verdict.ok:
        flag(decision, seat, "incorrect_solution")
        return
    decision.emit(
        "CardWon",
        seat=seat,
        card_id=card.card.card_id,
        dots=card.card.dots,
        play=card.play,
        rule="R-PLAY-6",
    )
    settle(decision)


def _declare_stumped(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-7: when every student still in play agrees, the card is stumped."""
    assert seat is not None
    card = decision.card
    if seat in card.stumped:
        raise refuse("already_stumped", f"seat {seat} already declared stumped")
    decision.emit("StumpedDeclared", seat=seat, play=card.play, rule="R-PLAY-7")
    if set(decision.state.seats_on_card()) <= set(decision.card.stumped):
        _card_stumped(decision, "all_stumped")


def _card_stumped(decision: ChallengeDecision, reason: str) -> None:
    card = decision.card
    decision.emit(
        "CardStumped", card_id=card.card.card_id, play=card.play, reason=reason, rule="R-PLAY-7"
    )
    settle(decision)


def _override_first_touch(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-2: "the proctor decides who was first": a logged ruling; the new toucher's
    windows start at the ruling, and the previous toucher's pattern and steps are dropped."""
    target = named_seat(decision.state, command)
    card = decision.card
    if target == card.toucher:
        raise refuse("already_first", f"seat {target} already holds the card")
    if target in card.fouls:
        raise refuse(
            "foul_touch", f"seat {target} touched with more than three fingertips (R-PLAY-3)"
        )
    decision.emit(
        "FirstTouchOverridden",
        seat=target,
        previous=card.toucher,
        play=card.play,
        rule="R-PLAY-2",
    )


def _issue_flag(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-FLAG-1: a proctor's flag for one of the five causes (e.g. a touch of the proctor's
    hand seen at a physical table)."""
    target = named_seat(decision.state, command)
    cause = command.args.get("cause")
    if not isinstance(cause, str) or cause not in FLAG_CAUSES:  # a list is not even hashable
        raise refuse("bad_args", f"issue_flag: 'cause' is one of {', '.join(FLAG_CAUSES)}")
    flag(decision, target, cause)


def _rule_slap(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-3: the proctor saw a slap (a physical table): the student is disqualified."""
    disqualify_for_slap(decision, named_seat(decision.state, command))


def _end_round(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """The proctor or director ends the round early (a timed tournament, an emergency)."""
    end_round_now(decision, "ended_by_proctor")


def _pause_table(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """No deadline is live while paused; the shell pauses a table mid-card after a restart."""
    if decision.state.paused:
        raise refuse("already_paused", f"paused since: {decision.state.pause_cause}")
    cause = refuse.text_arg(command, "cause", MAX_NAME, default="proctor")
    decision.emit("TablePaused", cause=cause)


def _resume_table(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """The live windows restart in full from now: nobody loses time to the pause."""
    if not decision.state.paused:
        raise refuse("not_paused", "the table is not paused")
    decision.emit("TableResumed", cause=decision.state.pause_cause)


def _no_touch_deadline(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-7: nobody touched within 15 s of the reveal."""
    _card_stumped(decision, "no_touch")


def _pattern_deadline(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-4 / R-FLAG-1: no pattern within 3 s of the touch."""
    assert decision.card.toucher is not None
    flag(decision, decision.card.toucher, "no_pattern")


def _solution_deadline(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-5 / R-FLAG-1: no fixed solution within 15 s of the touch."""
    assert decision.card.toucher is not None
    flag(decision, decision.card.toucher, "no_solution")


def _round_deadline(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-ROUND-6: a timed round's time is up; the card in play (if any) is void: it scores
    for nobody and is listed with the unplayed cards."""
    end_round_now(decision, "time_up")


# -- the table of commands -------------------------------------------------------------------

PAUSED, WAITING = ("paused",), ("paused", "waiting")


def _student(
    phases: tuple[str, ...], handler: Handler[ChallengeDecision]
) -> Rule[ChallengeDecision]:
    """A student's own command: the player's at a networked table, recorded by the proctor at
    a proctored one (`senders.acting_seat`)."""
    return Rule(STUDENT_SENDERS, phases, handler, sender=STUDENT)


COMMANDS: dict[str, Rule[ChallengeDecision]] = {
    "start_round": Rule(PROCTORS, (SETUP,), _start_round),
    # no card before the students are there (challenge/arrival.py): the server begins play
    # when every seat is connected or marked, a proctor or the director at once
    "begin_play": Rule(PROCTORS | TIMER, RUNNING_PHASES, arrival.begin_play, passes=WAITING),
    "mark_seat": Rule(PROCTORS, RUNNING_PHASES, arrival.mark_seat, passes=WAITING),
    "place_card": Rule(PROCTORS, (BETWEEN,), _place_card),
    "reveal_card": Rule(PROCTORS, (PLACED,), _reveal_card),
    "touch_card": _student((PLACED, REVEALED, SOLVING), _touch_card),
    "declare_pattern": _student((SOLVING,), _declare_pattern),
    "state_steps": _student((SOLVING,), _state_steps),
    "fix_solution": _student((SOLVING,), _fix_solution),
    "declare_stumped": _student((REVEALED,), _declare_stumped),
    "override_first_touch": Rule(PROCTORS, (SOLVING,), _override_first_touch),
    "issue_flag": Rule(PROCTORS, RUNNING_PHASES, _issue_flag, passes=PAUSED),
    "end_round": Rule(PROCTORS, RUNNING_PHASES, _end_round, passes=WAITING),
    "pause_table": Rule(PROCTORS | TIMER, RUNNING_PHASES, _pause_table, passes=PAUSED),
    "resume_table": Rule(PROCTORS, RUNNING_PHASES, _resume_table, passes=PAUSED),
    "rule_slap": Rule(PROCTORS, RUNNING_PHASES, _rule_slap, passes=PAUSED),
    "file_protest": Rule(PROTESTERS, HEARING, file_protest, passes=PAUSED),
    "rule_protest": Rule(PROCTORS, HEARING, rule_protest, passes=PAUSED),
    "sign_score_card": Rule(PROCTORS, (ENDED,), sign_score_card),
    "reopen_score_card": Rule(DIRECTOR, (ENDED,), reopen_score_card),
    "no_touch_deadline": Rule(TIMER, (REVEALED,), _no_touch_deadline),
    "grant_first_touch": Rule(TIMER, (REVEALED,), grant_first_touch),
    "pattern_deadline": Rule(TIMER, (SOLVING,), _pattern_deadline),
    "solution_deadline": Rule(TIMER, (SOLVING,), _solution_deadline),
    "round_deadline": Rule(TIMER, RUNNING_PHASES, _round_deadline),
}
# After a restart mid-card the shell pauses the table (cause `server_restart`); the proctor
# resumes it and the windows restart in full.
RECOVERY_COMMAND: str | None = "pause_table"
SEED_OPTION: str | None = None  # the deck comes in whole (`deck`), shuffled by its creator

# Why checks run in this order (the command, its arguments map, a timer's key, the sender,
# the phase, the pause, the wait for the students, then the handler's own): the first
# refusal a student sees is the one that matters most to them (a disqualified student hears
# that first, a stale deadline is recognised by its key alone, which implies the phase and
# no pause). The server sends every command a deadline fires (`auto_proctor` places and
# reveals too): the kit's `commands_by_role` names it.
GAME = Kit(
    COMMANDS,
    refuse,
    EVOLVERS,
    ChallengeDecision,
    ("args", "deadline", "sender", "phase", "paused", "waiting"),
    every_event=counted,
    holds=(
        Hold("paused", lambda state: state.paused, "table_paused", "the table is paused"),
        Hold(
            "waiting",
            lambda state: state.waiting,
            "waiting_for_students",
            "the table waits for its students (begin_play starts it)",
        ),
    ),
    phase_refusal=phase_refusal,
    sender=acting_seat,
    deadlines=deadlines,
    deadline_commands=DEADLINE_COMMANDS,
)
decide, evolve, COMMANDS_BY_ROLE = GAME.decide, GAME.evolve, GAME.commands_by_role


# -- queries: answered from the state, never recorded -----------------------------------------


def _preview_ruling(
    state: ChallengeState, args: Mapping[str, Any], viewer: Actor, now: int
) -> dict[str, Any]:
    """R-ROUND-8's what-if: the events `rule_protest` with these args would record, and the
    scores, flags and disqualifications before and after, computed by the same `decide` on
    the replayed state and folded on a copy. Refused exactly as the ruling would be."""
    events = decide(state, Command("rule_protest", args, viewer), now)
    after = state
    for event in events:
        after = evolve(after, event)
    return preview_of(state, after, events)


Query = Callable[[ChallengeState, Mapping[str, Any], Actor, int], dict[str, Any]]
QUERIES: dict[str, Query] = {"preview_ruling": _preview_ruling}


def query(
    state: ChallengeState, name: str, args: Mapping[str, Any], viewer: Actor, now: int
) -> dict[str, Any]:
    """Answer query `name` for `viewer` at `now` as plain data, or raise RuleViolation.

    Why not a command: a query changes nothing and is never recorded, so a proctor may ask
    "what if" as often as needed without a trace in the table's log.
    """
    answer = QUERIES.get(name)
    if answer is None:
        raise refuse("unknown_query", f"unknown query {name!r}")
    if not isinstance(args, Mapping):
        raise refuse("bad_args", f"{name}: arguments are a map")
    return answer(state, args, viewer, now)
