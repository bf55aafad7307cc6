"""Which cards each round of a 24 Challenge tournament plays (R-DECK-1, R-DECK-2, R-DECK-5):
the one table, for a tournament (`server.tournament.decks`) and a single table
(`server.games.challenge.options`, `t24 admin create-table`) alike.

What it keeps: per rules document, each round's *plan*: which edition's cards, which half of
that edition's 96-card deck (R-DECK-1: two halves of 48 double-sided cards, drawn by
`server.puzzles.editions` from one seed), and which side is up.

| round | official (default; `edition` E) | guidelines | special_instructions |
|---|---|---|---|
| 1 | E half 1, red | Single Digits half 1, white | Single Digits half 1, red |
| 2 | E half 1, white (flipped) | Double Digits half 1, red | Double Digits half 1, red |
| 3 | E half 2, red | Single Digits half 1, red | the mix, red |
| 4 | E half 2, white (flipped) | Double Digits half 1, white | the mix, white |

The mix (`MIXED`, "a combination of Single Digits, Double Digits and Variables cards"): 16
cards of each of the Single Digits and Double Digits decks' second halves (their first halves
played rounds 1-2) and of the Variables deck's first half, 4 one-dot, 8 two-dot and 4
three-dot cards of each (so 12/24/12 on each side, R-DECK-1), shuffled by the seed.

Why (docs/rules.md, "Which cards a round plays"): the Official Tournament Rules play one
96-card deck, its first half in rounds 1-2 and its second half in rounds 3-4, and name no
edition: the tournament's `edition` option, Single Digits by default. The Guidelines play two
editions in rounds 1 and 2 ("Single Digits cards WHITE sides up", "Double Digits cards with
RED sides up") and are silent on rounds 3-4: each edition's side not played yet, so every side
of their 96 cards is played once. Mixing editions under the Official Rules is only their
"Special Instructions", a document of its own here (`special_instructions`): "Round 1 may
be played with 48 Single Digits cards. Round 2 may be played with 48 Double Digits cards.
Semi-final Round 3 and Final Round 4 may be played with a combination of Single Digits,
Double Digits and Variables cards." They name no sides: the Official Rules' where they say
one (round 1 red; round 4 flips round 3's cards), and round 2's Double Digits cards red side
up as the Guidelines play them (new cards need no flipping).

The same documents differ on a stumped card (R-PLAY-7): the Official Rules' proctor "removes
that card for later play", the Guidelines "set that card aside in a separate pile"
(`STUMPED_CARDS`, the default of a table's `stumped_cards` under each document).

Why in `server/puzzles`: the reference CLI builds a table's deck too, and it may import only
the protocol and the pure arithmetic of 24 (docs/architecture.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from server.puzzles.editions import (
    DOUBLE_DIGITS,
    SINGLE_DIGITS,
    VARIABLES,
    TournamentCard,
    tournament_deck,
)

# R-DECK-5: the tournament picks one; the first is the default.
DOCUMENTS = ("official", "guidelines", "special_instructions")
MIXED = "mixed"  # the Special Instructions' rounds 3-4: see the module doc
# The mix: (edition, half) and how many cards of each dot value from each (4/8/4 x 3 = 48).
MIX_SOURCES = ((SINGLE_DIGITS, 2), (DOUBLE_DIGITS, 2), (VARIABLES, 1))
MIX_SHARE = {1: 4, 2: 8, 3: 4}
# The editions an Official Rules tournament may play its 96-card deck in; the first is the
# default (the Official Rules name none).
OFFICIAL_EDITIONS = (SINGLE_DIGITS, DOUBLE_DIGITS)
_EDITION = "edition"  # in ROUND_PLANS: the tournament's `edition` option
# R-PLAY-7 per document: the default `stumped_cards` policy of its tables (a table option).
STUMPED_CARDS = {
    "official": "replay_at_end",
    "guidelines": "set_aside",
    "special_instructions": "replay_at_end",  # part of the Official Rules
}

# (edition, half, side) per round, per rules document (R-DECK-5; the module table).
ROUND_PLANS: dict[str, dict[int, tuple[str, int, str]]] = {
    "official": {
        1: (_EDITION, 1, "red"),
        2: (_EDITION, 1, "white"),
        3: (_EDITION, 2, "red"),
        4: (_EDITION, 2, "white"),
    },
    "guidelines": {
        1: (SINGLE_DIGITS, 1, "white"),
        2: (DOUBLE_DIGITS, 1, "red"),
        3: (SINGLE_DIGITS, 1, "red"),
        4: (DOUBLE_DIGITS, 1, "white"),
    },
    "special_instructions": {
        1: (SINGLE_DIGITS, 1, "red"),
        2: (DOUBLE_DIGITS, 1, "red"),
        3: (MIXED, 2, "red"),
        4: (MIXED, 2, "white"),
    },
}


@dataclass(frozen=True)
class RoundPlan:
    """What one round plays (R-DECK-5): 48 double-sided cards, one side up."""

    edition: str  # the edition whose cards the round plays, or MIXED
    half: int  # which half of that edition's 96-card deck (R-DECK-1); MIXED: 2 (see above)
    side: str  # "red" or "white"


def _check(document: str, round_number: int) -> None:
    if document not in ROUND_PLANS:
        raise ValueError(f"a rules document is one of {', '.join(DOCUMENTS)}, not {document!r}")
    if round_number not in ROUND_PLANS[document]:
        raise ValueError(f"a round is 1, 2, 3 or 4, not {round_number!r}")


def stumped_cards(document: str) -> str:
    """R-PLAY-7: what a table under `document` does with a stumped card by default:
    `replay_at_end` (the Official Rules: "removes that card for later play") or `set_aside`
    (the Guidelines: "set that card aside in a separate pile")."""
    _check(document, 1)
    return STUMPED_CARDS[document]


def edition_choices(document: str) -> tuple[str | None, ...]:
    """The `edition` a tournament under `document` may name: the Official Rules' one
    96-card deck is in any of `OFFICIAL_EDITIONS`; the other documents name their editions
    themselves (only None, "the document's")."""
    _check(document, 1)
    return (None, *OFFICIAL_EDITIONS) if document == "official" else (None,)


def round_plan(document: str, round_number: int, edition: str | None = None) -> RoundPlan:
    """R-DECK-5: the edition, half and side round `round_number` plays under `document`
    (one of `DOCUMENTS`); `edition` is the Official Rules tournament's edition
    (None: Single Digits) and must be None under the other documents."""
    _check(document, round_number)
    if edition not in edition_choices(document):
        if document == "official":
            raise ValueError(
                f"an Official Rules deck is one of {', '.join(OFFICIAL_EDITIONS)}, not {edition!r}"
            )
        raise ValueError(f"the {document} rules name their editions (R-DECK-5), not {edition!r}")
    named, half, side = ROUND_PLANS[document][round_number]
    chosen = (edition or OFFICIAL_EDITIONS[0]) if named == _EDITION else named
    return RoundPlan(chosen, half, side)


def plan_cards(plan: RoundPlan, seed: int) -> tuple[TournamentCard, ...]:
    """The 48 double-sided cards of a plan for a deck seed (`editions.tournament_deck`,
    cached: a Double Digits half takes the solver seconds to draw, a Variables one more)."""
    if plan.edition == MIXED:
        return mixed_cards(seed)
    return tournament_deck(plan.edition, seed, plan.half)


def mixed_cards(seed: int) -> tuple[TournamentCard, ...]:
    """The Special Instructions' mix (module doc): from each of `MIX_SOURCES` the first
    `MIX_SHARE` cards of each dot value in its deck's order, then shuffled by the seed."""
    cards: list[TournamentCard] = []
    for edition, half in MIX_SOURCES:
        source = tournament_deck(edition, seed, half)
        for value, count in MIX_SHARE.items():
            cards.extend([card for card in source if card.red.dots == value][:count])
    rng = random.Random(f"t24/{MIXED}/{seed}")
    for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates over `random()` alone
        j = min(int(rng.random() * (i + 1)), i)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def _draws(plan: RoundPlan) -> tuple[tuple[str, int], ...]:
    """The (edition, half) decks a plan's cards come from."""
    return MIX_SOURCES if plan.edition == MIXED else ((plan.edition, plan.half),)


def draws_needed(document: str, edition: str | None, seed: int) -> list[tuple[str, int, int]]:
    """Every (edition, seed, half) the four rounds under `document` draw, in round order
    without repeats: what a tournament's node draws ahead on a thread."""
    needed: list[tuple[str, int, int]] = []
    for number in (1, 2, 3, 4):
        for drawn, half in _draws(round_plan(document, number, edition)):
            draw = (drawn, seed, half)
            if draw not in needed:
                needed.append(draw)
    return needed


def round_deck(
    seed: int,
    document: str,
    round_number: int,
    side: str | None = None,
    edition: str | None = None,
) -> list[dict[str, Any]]:
    """The round's 48 card sides in deck order, as table `deck` entries (`card_id`,
    `numbers`, `dots`): its plan's cards (R-DECK-5) on the plan's side, or on `side`."""
    plan = round_plan(document, round_number, edition)
    chosen = side or plan.side
    return [
        {"card_id": card.card_id, **card.side(chosen).as_dict()} for card in plan_cards(plan, seed)
    ]
