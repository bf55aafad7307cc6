"""The options of a Kortspillet 24 table (R-DECK40-1..7): the 40 cards, their recorded
shuffle, the layout per player count, the scoring version and the house option.

What this module keeps:
- The cards are ordinary playing cards without face cards (R-DECK40-1): ace (1) to 10 in four
  suits, named `<rank><suit>` (`AS`, `7H`, `10D`): ranks A 2..10, suits C D H S. The number
  a card gives the puzzle is its rank, ace = 1.
- The shuffle is options data: `deck`, the 40 names in order (top first), as the shell
  shuffled them; or a `seed` the game expands with `editions.playing_card_deck` at
  `start_game`. Either way `GameStarted` records the order, so replay never re-shuffles.
- The layout follows the player count (documented in docs/games/deck40.md):

  | players | layout | each turns up | R |
  |---|---|---|---|
  | 2 | `pairs`: own piles of 20 | two cards | the seed's own text |
  | 4 | `singles`: own piles of 10 | one card | "divide the cards equally" |
  | 3, 5..8 | `common_pile`: the server deals | four from one pile | R-DECK40-5 |

  `layout: "common_pile"` asks for the dealer's variant with 2 or 4 players too.

| option | default | rule |
|---|---|---|
| seats | (required) 2..8 `{"seat", "name"}` | R-DECK40-1 |
| deck | none: shuffled from `seed` | R-DECK40-1 |
| seed | 0 | R-DECK40-1 |
| layout | "auto" (see above) or "common_pile" | R-DECK40-5 |
| scoring | "simple", "advanced" or "cards" | R-DECK40-3, R-DECK40-6 |
| target_points | none: until the cards run out (not with "cards") | R-DECK40-6 |
| house_loser_takes | false ("cards" with two players only) | R-DECK40-6 |
| reveal_unsolvable | false | R-DECK40-7 |
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.games.base import DEFAULT_LANG, LANG_WHY, RuleViolation, SeatInfo, read_lang
from server.games.table_options import invalid as shared_invalid
from server.games.table_options import is_int, read_seats
from server.puzzles.editions import SUITS, playing_card_deck

MIN_SEATS, MAX_SEATS = 2, 8
RANK_NAMES = {1: "A", **{rank: str(rank) for rank in range(2, 11)}}
SUIT_LETTERS = {suit: suit[0].upper() for suit in SUITS}  # clubs -> C, ...
CARD_NAMES = tuple(
    f"{RANK_NAMES[rank]}{SUIT_LETTERS[suit]}" for suit in SUITS for rank in range(1, 11)
)
_BY_NAME = {
    f"{RANK_NAMES[rank]}{SUIT_LETTERS[suit]}": (suit, rank)
    for suit in SUITS
    for rank in range(1, 11)
}
LAYOUTS = ("auto", "common_pile")
SCORINGS = ("simple", "advanced", "cards")
MAX_TARGET = 100

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "seats": [{"seat": "s1", "name": "Seat 1"}, {"seat": "s2", "name": "Seat 2"}],
    "seed": 0,
    "layout": "auto",
    "scoring": "simple",
    "target_points": None,
    "house_loser_takes": False,
    "reveal_unsolvable": False,
    "lang": DEFAULT_LANG,
}
KNOWN = frozenset(DEFAULT_OPTIONS) | {"deck"}
# The rule a refusal of the table's options cites (checks.REFUSALS["invalid_options"] reads it).
OPTIONS_RULE = "R-DECK40-1"


def invalid(name: str, why: str) -> RuleViolation:
    """The refusal of one option, naming it and citing R-DECK40-1."""
    return shared_invalid(name, why, OPTIONS_RULE)


def rank(card: str) -> int:
    """The number a card gives the puzzle: its rank, ace = 1 (R-DECK40-1)."""
    return _BY_NAME[card][1]


def card_data(card: str) -> dict[str, Any]:
    """A card as the log shows it: name, suit and rank (R-DECK40-1)."""
    suit, value = _BY_NAME[card]
    return {"card": card, "suit": suit, "rank": value}


def is_card(value: object) -> bool:
    """True for one of the 40 card names."""
    return isinstance(value, str) and value in _BY_NAME


def shuffled_deck(seed: int) -> list[str]:
    """The 40 names in the order `editions.playing_card_deck(seed)` shuffles them."""
    return [f"{RANK_NAMES[c.rank]}{SUIT_LETTERS[c.suit]}" for c in playing_card_deck(seed)]


@dataclass(frozen=True)
class Deck40Options:
    """Everything fixed about a table."""

    seats: tuple[SeatInfo, ...]
    deck: tuple[str, ...] | None  # the recorded shuffle, or None: from `seed` at start_game
    seed: int = 0
    layout: str = "pairs"  # resolved: "pairs", "singles" or "common_pile"
    scoring: str = "simple"
    target_points: int | None = None
    house_loser_takes: bool = False
    reveal_unsolvable: bool = False
    lang: str = DEFAULT_LANG

    @property
    def per_player(self) -> int:
        """How many cards each player turns up from his own pile (0 with the common pile)."""
        return {"pairs": 2, "singles": 1}.get(self.layout, 0)

    def public_data(self) -> dict[str, Any]:
        """The options a player may see (not the shuffle, nor the seed that gives it)."""
        return {
            "seats": [seat.as_data() for seat in self.seats],
            "layout": self.layout,
            "scoring": self.scoring,
            "target_points": self.target_points,
            "house_loser_takes": self.house_loser_takes,
            "reveal_unsolvable": self.reveal_unsolvable,
            **({"lang": self.lang} if self.lang != DEFAULT_LANG else {}),
        }


def _read_deck(value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    if (
        not isinstance(value, list | tuple)
        or not all(is_card(card) for card in value)
        or sorted(value) != sorted(CARD_NAMES)
    ):
        raise invalid("deck", "the 40 card names (AC..10S), each once, top first (R-DECK40-1)")
    return tuple(value)


def _layout(requested: object, players: int) -> str:
    if requested not in LAYOUTS:
        raise invalid("layout", f"one of {', '.join(LAYOUTS)}")
    if requested == "common_pile":
        return "common_pile"
    return {2: "pairs", 4: "singles"}.get(players, "common_pile")


def _flag(raw: Mapping[str, Any], name: str) -> bool:
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise invalid(name, "true or false")
    return value


def table_options(raw: Mapping[str, Any]) -> Deck40Options:
    """Read and validate recorded options, filling the defaults; refuses, never repairs."""
    if not isinstance(raw, Mapping):
        raise RuleViolation("invalid_options", "options are a map", OPTIONS_RULE)
    unknown = sorted(str(name) for name in raw if name not in KNOWN)
    if unknown:
        raise invalid(unknown[0], "unknown option")
    seats = read_seats(raw.get("seats"), MIN_SEATS, MAX_SEATS, invalid)
    seed = raw.get("seed", 0)
    if not is_int(seed) or not 0 <= seed < 2**63:
        raise invalid("seed", "a whole number >= 0")
    layout = _layout(raw.get("layout", "auto"), len(seats))
    scoring = raw.get("scoring", "simple")
    if scoring not in SCORINGS:
        raise invalid("scoring", f"one of {', '.join(SCORINGS)} (R-DECK40-3, R-DECK40-6)")
    target = raw.get("target_points")
    if target is not None and (not is_int(target) or not 1 <= target <= MAX_TARGET):
        raise invalid("target_points", f"a whole number 1..{MAX_TARGET}, or null")
    if scoring == "cards" and target is not None:
        raise invalid("target_points", "the card version has no points (R-DECK40-6)")
    if scoring == "cards" and layout == "common_pile":
        raise invalid("scoring", "the card version needs own piles: 2 or 4 players (R-DECK40-6)")
    house = _flag(raw, "house_loser_takes")
    if house and (scoring != "cards" or layout != "pairs"):
        raise invalid(
            "house_loser_takes", "a house option of the card version with two players (R-DECK40-6)"
        )
    lang = read_lang(raw.get("lang", DEFAULT_LANG))
    if lang is None:
        raise invalid("lang", LANG_WHY)
    return Deck40Options(
        seats=seats,
        deck=_read_deck(raw.get("deck")),
        seed=seed,
        layout=layout,
        scoring=scoring,
        target_points=target,
        house_loser_takes=house,
        reveal_unsolvable=_flag(raw, "reveal_unsolvable"),
        lang=lang,
    )


def the_deck(options: Deck40Options) -> tuple[str, ...]:
    """The order `start_game` records: the given shuffle, or the seed's."""
    return options.deck if options.deck is not None else tuple(shuffled_deck(options.seed))
