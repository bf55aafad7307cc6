"""The 24 Challenge tournament table (R-PUZ, R-DECK-4, R-PLAY, R-FLAG, R-ROUND-1) as a Decider.

This module is the game's face for the shell (`server.games.base.Game`): `NAME`,
`initial_state`, `decide`, `evolve`, `deadlines`, `view`, `event_view`, `is_over`,
`FINAL_EVENTS`, `EVENT_TYPES`, `DEFAULT_OPTIONS`, `RECOVERY_COMMAND`, `COMMANDS_BY_ROLE`. It
holds `decide`, the only place that judges whether a command may happen
and what follows from it.
The records live in `challenge/records.py`, `evolve` in `challenge/state.py`, the options and
the deck in `challenge/options.py`, the actor and argument checks with every refusal code in
`challenge/checks.py`, what each viewer may see in `challenge/view.py`, the consequences
several commands share (a flag, a slap, the end of the round) in `challenge/batch.py`, and the
protests, rulings, corrections and score card (R-ROUND-7, R-ROUND-8) in `challenge/protests.py`,
the wait for the students before the first card (`wait_for_students`) in `challenge/arrival.py`.
`query` answers questions that are never recorded (`preview_ruling`); `check_new_table` the
rules only a new table must meet (R-PUZ-4, `challenge/options.py`).

Rules this file keeps (every one of them is cited where it is enforced):
- Who may send what: the table `COMMANDS` below. In a `networked` table students send their
  own touches and answers; in a `proctored` table the proctor records them for a seat.
- When: each command names the phases it is allowed in (see `challenge.state`); a paused
  table refuses everything but resume, end, and a proctor's flag.
- The shell fires deadlines as ordinary commands from the `server` actor carrying the
  deadline's `key`; a key that is no longer live is refused as `stale_deadline`.
- Time: `now` is the server's arrival time in microseconds. The table's clock never runs
  backwards: a `now` earlier than the last recorded time counts as that time.
- Arrival order decides who touched first (R-PLAY-2): the shell calls `decide` in arrival
  order; each touch records its time. A table with `touch_compensation` instead grants the
  card to the earliest touch corrected for each connection's lag, after a short arbitration
  window (`challenge/arbitration.py`, issue 19).

How it works: a handler per command appends events to a `Batch`, which evolves its own copy
of the state as it goes, so follow-ups (a flag that disqualifies, a last card that ends the
round) are judged on the state the earlier events of the same command produced.

HIDDEN (what the game hides from whom, checked by tests/contract/test_game_contract.py):
players and spectators never see the deck order, the cards removed under R-DECK-4, the
unplayed cards at the end, nor a card's id, numbers or dots before it is revealed (a card
placed and returned unrevealed keeps its id hidden). Proctors, directors, auditors and the
server see everything (`challenge/view.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from server.games.base import SERVER, Actor, Command, Event, due_deadline
from server.games.challenge import arrival, variables_play
from server.games.challenge.arbitration import claim_touch, grant_first_touch
from server.games.challenge.arrival import presence_command
from server.games.challenge.batch import Batch, disqualify_for_slap, end_round_now, flag, settle
from server.games.challenge.checks import (
    FLAG_CAUSES,
    PROCTORS,
    REFUSALS,
    STUDENT,
    acting_seat,
    int_arg,
    named_seat,
    phase_refusal,
    refuse,
    steps_arg,
    text_arg,
)
from server.games.challenge.options import DEFAULT_OPTIONS, MAX_NAME, check_new_table
from server.games.challenge.protests import (
    file_protest,
    preview_of,
    reopen_score_card,
    rule_protest,
    sign_score_card,
)
from server.games.challenge.state import (
    BETWEEN,
    DEADLINE_COMMANDS,
    ENDED,
    EVENT_TYPES,
    FINAL_EVENTS,
    PLACED,
    REVEALED,
    RUNNING_PHASES,
    SETUP,
    SOLVING,
    CardInPlay,
    ChallengeState,
    deadlines,
    evolve,
    initial_state,
    is_over,
)
from server.games.challenge.view import event_view, redaction_group, secrets, view, view_group
from server.puzzles.expressions import MAX_TEXT, PuzzleSyntaxError, parse_pattern

NAME = "challenge"

__all__ = [
    "COMMANDS",
    "COMMANDS_BY_ROLE",
    "DEFAULT_OPTIONS",
    "EVENT_TYPES",
    "FINAL_EVENTS",
    "FLAG_CAUSES",
    "NAME",
    "QUERIES",
    "RECOVERY_COMMAND",
    "SEED_OPTION",
    "REFUSALS",
    "check_new_table",
    "decide",
    "deadlines",
    "event_view",
    "evolve",
    "initial_state",
    "is_over",
    "measures_lag",
    "presence_command",
    "query",
    "redaction_group",
    "secrets",
    "view",
    "view_group",
]

TIMER = frozenset({SERVER})
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


def _require_toucher(batch: Batch, seat: str) -> CardInPlay:
    card = batch.card
    if card.toucher != seat:
        raise refuse("not_toucher", f"seat {seat} did not touch first; {card.toucher} did")
    return card


def _before(batch: Batch, window_us: int, what: str, rule: str) -> None:
    """Refuse an answer that arrives when its window has closed (the deadline will fire)."""
    if batch.now >= batch.state.timer_from + window_us:
        raise refuse("too_late", f"{what} came after {window_us / 1e6:g} s ({rule})", rule)


# -- handlers (batch, command, acting seat or None) ----------------------------------------


def _start_round(batch: Batch, command: Command, seat: str | None) -> None:
    """R-DECK-4: a 3-student table removes two 2-dot cards (the two nearest the bottom)."""
    options = batch.state.options
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
    batch.emit(
        "RoundStarted",
        round=options.round,
        deck=[card_id for card_id in order if card_id not in removed],
        removed=removed,
        seats=[info.as_data() for info in options.seats],
        options=options.as_data(),
        rule="R-DECK-4" if removed else "R-ROUND-1",
    )
    settle(batch)


def _place_card(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-1: the top card goes into play, cupped (its numbers hidden from players)."""
    card = batch.state.options.card(batch.state.deck[0])
    batch.emit(
        "CardPlaced",
        card_id=card.card_id,
        **card.shown(),
        dots=card.dots,
        play=batch.state.plays + 1,
        rule="R-PLAY-1",
    )


def _reveal_card(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-1: the proctor withdraws the hand; the no-touch window (R-PLAY-7) opens."""
    card = batch.card
    batch.emit(
        "CardRevealed",
        card_id=card.card.card_id,
        **card.card.shown(),
        dots=card.card.dots,
        play=card.play,
        rule="R-PLAY-1",
    )


def _touch_card(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-2 (first touch holds the card, later ones are recorded and refused) and
    R-PLAY-3 (a touch before the reveal, or with more than three fingertips, draws a flag; a
    slap disqualifies), judged for every touch, first or later (decision 3)."""
    assert seat is not None
    fingertips = int_arg(command, "fingertips", 1, MAX_FINGERTIPS, 1)
    phase, card = batch.state.phase, batch.card
    if seat in card.touches:  # a later touch, or a claim awaiting the arbitration
        raise refuse("already_touched", f"seat {seat}'s touch on this card is recorded")
    compensated = phase == REVEALED and batch.state.options.touch_compensation
    if compensated and fingertips <= 3:
        claim_touch(batch, seat, fingertips, command)  # R-PLAY-2 under compensation
        return
    if phase == SOLVING or (compensated and card.claims):
        # Somebody holds the card (or has claimed it: the arbitration decides between the
        # claims only): a later touch is recorded and refused.
        batch.emit(
            "TouchRefused",
            seat=seat,
            fingertips=fingertips,
            play=card.play,
            reason="not_first",
            toucher=card.toucher,
            rule="R-PLAY-2",
        )
    else:
        batch.emit("CardTouched", seat=seat, fingertips=fingertips, play=card.play, rule="R-PLAY-2")
    _judge_fingertips(batch, seat, fingertips, phase)


def _judge_fingertips(batch: Batch, seat: str, fingertips: int, phase: str) -> None:
    """R-PLAY-3, for any student's touch: the seed's causes name no first touch ("Student
    touches card with more than 3 fingertips", "Student touches proctor's hand before it is
    withdrawn"). A penalty on a bystander leaves the card with the student who holds it
    (decision 5, `batch._taken_from`)."""
    if fingertips >= SLAP_FINGERTIPS:
        disqualify_for_slap(batch, seat)
    elif phase == PLACED:
        flag(batch, seat, "touched_before_reveal")
    elif fingertips > 3:
        flag(batch, seat, "too_many_fingertips")


def _declare_pattern(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-4: the toucher announces the pattern within 3 s; R-PLAY-5: it cannot change."""
    assert seat is not None
    card = _require_toucher(batch, seat)
    if card.pattern is not None:
        raise refuse("pattern_cannot_change", f"the pattern {card.pattern!r} is declared")
    _before(batch, batch.state.options.pattern_us, "the pattern", "R-PLAY-4")
    text = text_arg(command, "pattern", MAX_TEXT)
    try:
        parsed = parse_pattern(text)
    except PuzzleSyntaxError as error:
        raise refuse("bad_pattern", f"pattern: {error.message}") from None
    batch.emit(
        "PatternDeclared",
        seat=seat,
        pattern=text,
        canonical=str(parsed),
        play=card.play,
        rule="R-PLAY-4",
    )


def _answering(batch: Batch, seat: str | None) -> CardInPlay:
    """The card a toucher answers for, refused before the pattern or after 15 s (R-PLAY-5)."""
    assert seat is not None
    card = _require_toucher(batch, seat)
    if card.pattern is None:
        raise refuse("pattern_first", "announce the pattern before the steps (R-PLAY-4)")
    _before(batch, batch.state.options.solution_us, "the solution", "R-PLAY-5")
    return card


def _state_steps(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-5: steps may be stated and restated (each statement replaces the last)."""
    card = _answering(batch, seat)
    steps = steps_arg(command, required=True, most=variables_play.most_steps(card.card))
    x = variables_play.x_arg(command, card.card)
    batch.emit(
        "StepsStated",
        seat=seat,
        steps=list(steps),
        **variables_play.with_x(card.card, card.x if x is None else x),
        play=card.play,
        rule="R-PLAY-5",
    )


def _fix_solution(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-5/6, R-PUZ-2/3: the fixed solution is judged exactly; right wins the card's
    dots, wrong draws a flag (R-FLAG-1)."""
    card = _answering(batch, seat)
    steps = steps_arg(command, required=False, most=variables_play.most_steps(card.card))
    steps = steps or card.steps
    if not steps:
        raise refuse("no_steps", "state the steps before fixing the solution")
    x = variables_play.fixed_x(command, card.card, card.x)
    assert seat is not None and card.pattern is not None
    batch.emit(
        "SolutionFixed",
        seat=seat,
        steps=list(steps),
        **variables_play.with_x(card.card, x),
        play=card.play,
        rule="R-PLAY-5",
    )
    verdict = variables_play.judge(card.card, x, card.pattern, steps)
    batch.emit(
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
        flag(batch, seat, "incorrect_solution")
        return
    batch.emit(
        "CardWon",
        seat=seat,
        card_id=card.card.card_id,
        dots=card.card.dots,
        play=card.play,
        rule="R-PLAY-6",
    )
    settle(batch)


def _declare_stumped(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-7: when every student still in play agrees, the card is stumped."""
    assert seat is not None
    card = batch.card
    if seat in card.stumped:
        raise refuse("already_stumped", f"seat {seat} already declared stumped")
    batch.emit("StumpedDeclared", seat=seat, play=card.play, rule="R-PLAY-7")
    if set(batch.state.seats_on_card()) <= set(batch.card.stumped):
        _card_stumped(batch, "all_stumped")


def _card_stumped(batch: Batch, reason: str) -> None:
    card = batch.card
    batch.emit(
        "CardStumped", card_id=card.card.card_id, play=card.play, reason=reason, rule="R-PLAY-7"
    )
    settle(batch)


def _override_first_touch(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-2: "the proctor decides who was first": a logged ruling; the new toucher's
    windows start at the ruling, and the previous toucher's pattern and steps are dropped."""
    target = named_seat(batch.state, command)
    card = batch.card
    if target == card.toucher:
        raise refuse("already_first", f"seat {target} already holds the card")
    if target in card.fouls:
        raise refuse(
            "foul_touch", f"seat {target} touched with more than three fingertips (R-PLAY-3)"
        )
    batch.emit(
        "FirstTouchOverridden",
        seat=target,
        previous=card.toucher,
        play=card.play,
        rule="R-PLAY-2",
    )


def _issue_flag(batch: Batch, command: Command, seat: str | None) -> None:
    """R-FLAG-1: a proctor's flag for one of the five causes (e.g. a touch of the proctor's
    hand seen at a physical table)."""
    target = named_seat(batch.state, command)
    cause = command.args.get("cause")
    if not isinstance(cause, str) or cause not in FLAG_CAUSES:  # a list is not even hashable
        raise refuse("bad_args", f"issue_flag: 'cause' is one of {', '.join(FLAG_CAUSES)}")
    flag(batch, target, cause)


def _rule_slap(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-3: the proctor saw a slap (a physical table): the student is disqualified."""
    disqualify_for_slap(batch, named_seat(batch.state, command))


def _end_round(batch: Batch, command: Command, seat: str | None) -> None:
    """The proctor or director ends the round early (a timed tournament, an emergency)."""
    end_round_now(batch, "ended_by_proctor")


def _pause_table(batch: Batch, command: Command, seat: str | None) -> None:
    """No deadline is live while paused; the shell pauses a table mid-card after a restart."""
    if batch.state.paused:
        raise refuse("already_paused", f"paused since: {batch.state.pause_cause}")
    cause = text_arg(command, "cause", MAX_NAME, default="proctor")
    batch.emit("TablePaused", cause=cause)


def _resume_table(batch: Batch, command: Command, seat: str | None) -> None:
    """The live windows restart in full from now: nobody loses time to the pause."""
    if not batch.state.paused:
        raise refuse("not_paused", "the table is not paused")
    batch.emit("TableResumed", cause=batch.state.pause_cause)


def _no_touch_deadline(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-7: nobody touched within 15 s of the reveal."""
    _card_stumped(batch, "no_touch")


def _pattern_deadline(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-4 / R-FLAG-1: no pattern within 3 s of the touch."""
    assert batch.card.toucher is not None
    flag(batch, batch.card.toucher, "no_pattern")


def _solution_deadline(batch: Batch, command: Command, seat: str | None) -> None:
    """R-PLAY-5 / R-FLAG-1: no fixed solution within 15 s of the touch."""
    assert batch.card.toucher is not None
    flag(batch, batch.card.toucher, "no_solution")


def _round_deadline(batch: Batch, command: Command, seat: str | None) -> None:
    """R-ROUND-6: a timed round's time is up; the card in play (if any) is void: it scores
    for nobody and is listed with the unplayed cards."""
    end_round_now(batch, "time_up")


# -- the table of commands -------------------------------------------------------------------

Handler = Callable[[Batch, Command, "str | None"], None]


@dataclass(frozen=True)
class CommandRule:
    """Who may send a command (roles, or STUDENT: see `acting_seat`), in which phases, and
    whether a paused table accepts it."""

    roles: frozenset[str] | None
    phases: tuple[str, ...]
    handler: Handler
    while_paused: bool = False
    while_waiting: bool = False  # taken before play begins (challenge/arrival.py)


COMMANDS: dict[str, CommandRule] = {
    "start_round": CommandRule(PROCTORS, (SETUP,), _start_round),
    # no card before the students are there (challenge/arrival.py): the server begins play
    # when every seat is connected or marked, a proctor or the director at once
    "begin_play": CommandRule(
        PROCTORS | TIMER,
        RUNNING_PHASES,
        arrival.begin_play,
        while_paused=True,
        while_waiting=True,
    ),
    "mark_seat": CommandRule(
        PROCTORS, RUNNING_PHASES, arrival.mark_seat, while_paused=True, while_waiting=True
    ),
    "place_card": CommandRule(PROCTORS, (BETWEEN,), _place_card),
    "reveal_card": CommandRule(PROCTORS, (PLACED,), _reveal_card),
    "touch_card": CommandRule(STUDENT, (PLACED, REVEALED, SOLVING), _touch_card),
    "declare_pattern": CommandRule(STUDENT, (SOLVING,), _declare_pattern),
    "state_steps": CommandRule(STUDENT, (SOLVING,), _state_steps),
    "fix_solution": CommandRule(STUDENT, (SOLVING,), _fix_solution),
    "declare_stumped": CommandRule(STUDENT, (REVEALED,), _declare_stumped),
    "override_first_touch": CommandRule(PROCTORS, (SOLVING,), _override_first_touch),
    "issue_flag": CommandRule(PROCTORS, RUNNING_PHASES, _issue_flag, while_paused=True),
    "end_round": CommandRule(
        PROCTORS, RUNNING_PHASES, _end_round, while_paused=True, while_waiting=True
    ),
    "pause_table": CommandRule(PROCTORS | TIMER, RUNNING_PHASES, _pause_table, while_paused=True),
    "resume_table": CommandRule(PROCTORS, RUNNING_PHASES, _resume_table, while_paused=True),
    "rule_slap": CommandRule(PROCTORS, RUNNING_PHASES, _rule_slap, while_paused=True),
    "file_protest": CommandRule(PROTESTERS, HEARING, file_protest, while_paused=True),
    "rule_protest": CommandRule(PROCTORS, HEARING, rule_protest, while_paused=True),
    "sign_score_card": CommandRule(PROCTORS, (ENDED,), sign_score_card),
    "reopen_score_card": CommandRule(DIRECTOR, (ENDED,), reopen_score_card),
    "no_touch_deadline": CommandRule(TIMER, (REVEALED,), _no_touch_deadline),
    "grant_first_touch": CommandRule(TIMER, (REVEALED,), grant_first_touch),
    "pattern_deadline": CommandRule(TIMER, (SOLVING,), _pattern_deadline),
    "solution_deadline": CommandRule(TIMER, (SOLVING,), _solution_deadline),
    "round_deadline": CommandRule(TIMER, RUNNING_PHASES, _round_deadline),
}
FIRED_BY_DEADLINE = frozenset(DEADLINE_COMMANDS.values())
# A student's own command is sent by the player (networked) or recorded by a proctor
# (proctored); `acting_seat` tells which applies at a table.
STUDENT_SENDERS = frozenset({"player"}) | PROCTORS
# The server sends every command a deadline fires (`auto_proctor` places and reveals too).
COMMANDS_BY_ROLE: Mapping[str, frozenset[str]] = {
    name: (STUDENT_SENDERS if rule.roles is STUDENT else rule.roles)
    | (TIMER if name in FIRED_BY_DEADLINE else frozenset())
    for name, rule in COMMANDS.items()
}
# After a restart mid-card the shell pauses the table (cause `server_restart`); the proctor
# resumes it and the windows restart in full.
RECOVERY_COMMAND: str | None = "pause_table"
SEED_OPTION: str | None = None  # the deck comes in whole (`deck`), shuffled by its creator


def decide(state: ChallengeState, command: Command, now: int) -> list[Event]:
    """The events a command causes at `now` (microseconds), or a RuleViolation saying why not.

    Why checks run in this order (command, actor, phase, pause, arguments): the first refusal
    a student sees is the one that matters most to them (a disqualified student hears that
    first, a stale deadline is recognised by its key alone).
    """
    rule = COMMANDS.get(command.name)
    if rule is None:
        raise refuse("unknown_command", f"unknown command {command.name!r}")
    if not isinstance(command.args, Mapping):
        raise refuse("bad_args", f"{command.name}: arguments are a map")
    now = max(now, state.clock)  # the table's clock never runs backwards
    seat: str | None = None
    if command.actor.role == SERVER and command.name in FIRED_BY_DEADLINE:
        # A live key implies the phase and no pause. A timer fired a hair early (float
        # seconds in the shell) happens at its own time, so the log shows the exact deadline.
        now = max(now, due_deadline(deadlines(state), command, now, refuse).at)
    else:
        if rule.roles is STUDENT:
            seat = acting_seat(state, command)
        elif command.actor.role not in rule.roles:
            raise refuse("not_allowed", f"{command.actor.role!r} may not send {command.name}")
        if state.phase not in rule.phases:
            raise phase_refusal(command.name, state.phase)
        if state.paused and not rule.while_paused:
            raise refuse("table_paused", f"{command.name}: the table is paused")
        if state.waiting and not rule.while_waiting:
            raise refuse(
                "waiting_for_students",
                f"{command.name}: the table waits for its students (begin_play starts it)",
            )
    batch = Batch(state, now)
    rule.handler(batch, command, seat)
    return batch.events


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
