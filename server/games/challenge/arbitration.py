"""The compensated first touch: R-PLAY-2 over the network (issue 19, option
`touch_compensation`).

Why: at a physical table the proctor sees who touched first. Over the network arrival order
decides, so a student on a slower link loses races they won. A compensated table credits each
touch with its connection's estimated one-way delay (`Command.delay_us`, measured by the
shell from server times only, server/net/lag.py) and grants the card to the earliest
*compensated* touch.

The decision, exactly (docs/rules.md, "R-PLAY-2 under compensation"):
- credit = min(estimated delay, `max_credit_ms`), 0 when the estimate is stale or unknown, or
  when the touch is not the student's own (a proctor recording it for a seat);
- compensated time = max(arrival - credit, the reveal): no touch counts as made before the
  card could be seen, so a faked lag earns at most the cap and never more than the reveal;
- the first valid touch opens the arbitration: the card is granted when the window closes at
  (earliest compensated time + `max_credit_ms`; the `grant_first_touch` deadline of
  `state.deadlines`, which owns that sum). A touch arriving after that could not have an
  earlier compensated time (its credit is at most the cap), so waiting longer changes nothing;
  a lone toucher waits at most `max_credit_ms` after its arrival;
- the grant goes to the earliest compensated time; a tie goes to the earlier arrival (the
  log's order). The pattern and solution windows (R-PLAY-4/5) run from the grant.

Everything the decision used is recorded (`TouchClaimed` per touch: arrival, delay, credit,
compensated time; `FirstTouchGranted`: every touch considered, and who was first by
arrival), so a protest can replay it and see both orders.
"""

from __future__ import annotations

from server.games.base import Command
from server.games.challenge.consequences import ChallengeDecision
from server.games.challenge.state import CardInPlay, TouchClaim


def credit_for(command: Command, max_credit_us: int) -> tuple[int | None, int]:
    """(the delay the shell estimated, the credit it earns): only a student's own touch
    (role `player`) with a fresh estimate earns credit, and never more than the cap."""
    delay = command.delay_us
    if not isinstance(delay, int) or isinstance(delay, bool) or delay < 0:
        delay = None
    if delay is None or command.actor.role != "player":
        return delay, 0
    return delay, min(delay, max_credit_us)


def claim_of(
    card: CardInPlay, seat: str, fingertips: int, command: Command, now: int, max_credit_us: int
) -> TouchClaim:
    """The claim a valid touch at `now` makes (see the module doc for the formula)."""
    assert card.revealed_at is not None
    delay, credit = credit_for(command, max_credit_us)
    compensated = max(now - credit, card.revealed_at)
    return TouchClaim(seat, fingertips, now, delay, now - compensated, compensated)


def winner(claims: tuple[TouchClaim, ...]) -> TouchClaim:
    """The earliest compensated touch; `min` keeps the first of equals: the earlier arrival."""
    return min(claims, key=lambda claim: (claim.compensated_at, claim.arrival))


def claim_touch(decision: ChallengeDecision, seat: str, fingertips: int, command: Command) -> None:
    """R-PLAY-2 (compensated): record a valid touch on the free card for the arbitration."""
    card = decision.card
    claim = claim_of(
        card, seat, fingertips, command, decision.now, decision.state.options.max_credit_us
    )
    decision.emit(
        "TouchClaimed",
        seat=claim.seat,
        fingertips=claim.fingertips,
        play=card.play,
        arrival=claim.arrival,
        delay_us=claim.delay_us,
        credit_us=claim.credit_us,
        compensated_at=claim.compensated_at,
        rule="R-PLAY-2",
    )


def grant_first_touch(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """R-PLAY-2 (compensated): the window has closed; the earliest compensated touch holds
    the card from now, and R-PLAY-4/5's windows start."""
    card = decision.card
    first = winner(card.claims)
    decision.emit(
        "FirstTouchGranted",
        seat=first.seat,
        play=card.play,
        compensated_at=first.compensated_at,
        first_by_arrival=card.claims[0].seat,
        considered=[claim.as_data() for claim in card.claims],
        rule="R-PLAY-2",
    )
