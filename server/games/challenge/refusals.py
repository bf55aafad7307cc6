"""Every refusal code of a 24 Challenge table, and the refusal for a command sent in the wrong
phase.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites),
`refuse`, which raises them and reads the arguments (`server.games.kit.Refusals`), and
`phase_refusal`, with a code that says what is wrong. Who may send a student's command is
`challenge/senders.py`'s; the flag causes are `challenge/consequences.py`'s.
"""

from __future__ import annotations

from server.games.base import RuleViolation
from server.games.challenge.state import BETWEEN, ENDED, PLACED, REVEALED, SETUP, SOLVING
from server.games.kit import Refusals, kit_refusals

SCORE_CARD_COMMANDS = frozenset({"sign_score_card", "reopen_score_card"})  # R-ROUND-7
MAX_STEPS = 3  # R-PUZ-2: a solution is three steps; more is refused before it is recorded

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    **kit_refusals("a 24 Challenge table", seated=True, deadlines=True),
    "bad_options": ("", "the table options are invalid (from initial_state)"),
    "not_allowed": ("R-PLAY-2", "this role may not send this command at this table"),
    "not_your_seat": ("R-PLAY-2", "a player acts only for its own seat"),
    "seat_required": ("R-PLAY-2", "the proctor must name the seat it records for"),
    "round_not_started": ("R-ROUND-1", "the round has not started"),
    "round_already_started": ("R-ROUND-1", "the round has already started"),
    "round_over": ("R-ROUND-1", "the round has ended"),
    "table_paused": ("", "the table is paused"),
    "waiting_for_students": ("", "the table waits for its students: play has not begun"),
    "students_missing": ("", "play cannot begin by itself: a student is not there yet"),
    "play_begun": ("", "play has begun: the wait for the students is over"),
    "already_paused": ("", "the table is already paused"),
    "not_paused": ("", "the table is not paused"),
    "card_in_play": ("R-PLAY-1", "a card is already in play"),
    "no_card_in_play": ("R-PLAY-1", "no card is in play"),
    "no_card_placed": ("R-PLAY-1", "no card has been placed to reveal"),
    "already_revealed": ("R-PLAY-1", "the card is already revealed"),
    "card_not_revealed": ("R-PLAY-1", "the card has not been revealed"),
    "no_touch_in_progress": ("R-PLAY-2", "nobody holds the card"),
    "touch_in_progress": ("R-PLAY-2", "a student holds the card"),
    "disqualified": ("R-FLAG-4", "a disqualified student takes no further part in the round"),
    "already_touched": ("R-PLAY-2", "this student's touch on this card is already recorded"),
    "not_toucher": ("R-PLAY-2", "only the first student to touch the card may answer"),
    "already_first": ("R-PLAY-2", "that student already holds the card"),
    "pattern_cannot_change": ("R-PLAY-5", "the pattern is declared and cannot change"),
    "bad_pattern": ("R-PUZ-3", "the pattern cannot be read as 'a op b'"),
    "pattern_first": ("R-PLAY-4", "the pattern is announced before the solution"),
    "too_late": ("R-PLAY-4", "the time for this answer has run out"),
    "no_steps": ("R-PLAY-5", "there are no steps to fix"),
    "no_x": ("R-PLAY-5", "a Variables card's solution names x: there is none to fix"),
    "already_stumped": ("R-PLAY-7", "this student already declared stumped"),
    "foul_touch": (
        "R-PLAY-2",
        "that student's touch was a foul (R-PLAY-3): it cannot hold the card",
    ),
    "not_yet_reinstated": ("R-ROUND-8", "a reinstated student plays again from the next card"),
    "unknown_seq": ("R-ROUND-8", "a protest names a seq that is not an event of this table"),
    "too_many_protests": ("R-ROUND-8", "this filer has too many open protests"),
    "unknown_protest": ("R-ROUND-8", "no protest has this number at this table"),
    "already_ruled": ("R-ROUND-8", "the protest is already ruled on"),
    "bad_correction": ("R-ROUND-8", "a correction is malformed, or a rejected protest has some"),
    "unknown_flag": ("R-ROUND-8", "that seat has no standing flag with this seq"),
    "no_slap": ("R-ROUND-8", "that seat is not disqualified for a slap"),
    "unknown_card": ("R-ROUND-8", "no card of this table's deck has this id"),
    "card_already_won": ("R-ROUND-8", "the card is already won (revoke it first)"),
    "card_not_won": ("R-ROUND-8", "that seat has not won this card"),
    "negative_score": ("R-ROUND-8", "the corrections would make a score negative"),
    "round_not_over": ("R-ROUND-7", "the score card is signed once the round has ended"),
    "protests_open": ("R-ROUND-8", "a protest is open: rule on it before signing"),
    "score_card_signed": ("R-ROUND-7", "the score card is signed: only the director may reopen it"),
    "not_signed": ("R-ROUND-7", "the score card is not signed"),
    "unknown_query": ("", "no such query at a 24 Challenge table"),
}


refuse = Refusals(REFUSALS)


def phase_refusal(name: str, phase: str) -> RuleViolation:
    """The refusal for command `name` sent in `phase`, with a code that says what is wrong
    (no card yet, card not revealed, somebody holds it, ...) rather than a generic one."""
    if phase == SETUP:
        return refuse("round_not_started", f"{name}: the round has not started")
    if name in SCORE_CARD_COMMANDS and phase != ENDED:
        return refuse("round_not_over", f"{name}: the round has not ended")
    if phase == ENDED:
        return refuse("round_over", f"{name}: the round has ended")
    if name == "start_round":
        return refuse("round_already_started", "the round has already started")
    if name == "place_card":
        return refuse("card_in_play", "a card is already in play")
    if name == "reveal_card":
        if phase == BETWEEN:
            return refuse("no_card_placed", "place a card before revealing it")
        return refuse("already_revealed", "the card is already revealed")
    code = {
        BETWEEN: "no_card_in_play",
        PLACED: "card_not_revealed",
        REVEALED: "no_touch_in_progress",
        SOLVING: "touch_in_progress",
    }[phase]
    return refuse(code, f"{name}: {REFUSALS[code][1]}")
