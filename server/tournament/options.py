"""The options of a tournament: what the director fixes when creating it, read and checked.

What this module keeps: a tournament's creation data is the `options` of its stream's first
event (`TableCreated {game: "tournament", options}`, written by the shell as for any table),
so `initial_state(options)` is a pure function of recorded data. `tournament_options(raw)`
reads it into a frozen `TournamentOptions` or refuses it with `RuleViolation("bad_options")`
naming the field, before anything is recorded.

| option | default | rule |
|---|---|---|
| name | (required) 1..64 characters | |
| date | (required) `YYYY-MM-DD` | |
| rules | `official`, `guidelines` or `special_instructions` | R-DECK-5 |
| edition | none (Official Rules: `single-digits`; or `double-digits`) | R-DECK-5 |
| grades | (required) 1..20 grade/section names | R-ROUND-2 |
| deck_seed | (required) a whole number 0..2**31-1 | R-DECK-1 |
| per_table_shuffle | false: every table of a round plays the same order | R-DECK-1 |
| advance_count | 16 (3..16) | R-ROUND-3 |
| tie_break_seconds | 300 (five minutes) | R-ROUND-6 |
| cards_per_round | 48; fewer (4..48) for a practice tournament or a test | R-ROUND-1 |
| table_options | {}: passed to every table (timers, `auto_proctor`, `mode`, ...) | |

What only a *new* tournament must meet (`check_new_tournament`, the tournament's
`check_new_table`, which the hub runs before it records anything and a replay never runs):
its date is a real day of the calendar (not `2026-02-31`), and its `table_options` pass the
checks a new 24 Challenge table's options get (`challenge.options.check_settings`, the one
place for them), so a round never starts tables that cannot be created. Why not when the
options are read: a tournament recorded before these checks must still load and replay.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from server.games.base import DEFAULT_LANG, LANG_WHY, RuleViolation, read_lang
from server.games.challenge.options import check_settings
from server.puzzles.round_decks import DOCUMENTS, edition_choices

RULES_DOCUMENTS = DOCUMENTS  # R-DECK-5: server.puzzles.round_decks owns the table
MAX_NAME = 64
MAX_GRADES = 20
MAX_SEED = 2**31 - 1
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Options a tournament may pass through to its tables; the others are its own to set.
TABLE_PASSTHROUGH = frozenset(
    {
        "pattern_seconds",
        "solution_seconds",
        "no_touch_seconds",
        "stumped_cards",
        "mode",
        "auto_proctor",
        "auto_reveal_seconds",
    }
)

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "rules": "official",
    "edition": None,
    "per_table_shuffle": False,
    "advance_count": 16,
    "tie_break_seconds": 300,
    "cards_per_round": 48,
    "table_options": {},
    "lang": DEFAULT_LANG,
}


@dataclass(frozen=True)
class TournamentOptions:
    """Everything fixed about a tournament when it is created."""

    name: str
    date: str
    grades: tuple[str, ...]
    deck_seed: int
    rules: str = "official"
    edition: str | None = None  # R-DECK-5: the Official Rules' 96-card deck; None: default
    per_table_shuffle: bool = False
    advance_count: int = 16
    tie_break_seconds: int = 300
    cards_per_round: int = 48
    table_options: Mapping[str, Any] = field(default_factory=dict)
    lang: str = DEFAULT_LANG  # its tables' language, passed on to each (docs/tournament.md)


def _bad(name: str, why: str) -> RuleViolation:
    return RuleViolation("bad_options", f"option {name!r}: {why}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(raw: Mapping[str, Any], name: str) -> str:
    value = raw.get(name)
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_NAME:
        raise _bad(name, f"a text of 1..{MAX_NAME} characters")
    return value.strip()


def tournament_options(raw: Mapping[str, Any]) -> TournamentOptions:
    """Read and check a tournament's creation options (see the module table)."""
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_options", "options are a map")
    known = {"name", "date", "grades", "deck_seed", *DEFAULT_OPTIONS}  # rules: a default one
    unknown = sorted(str(name) for name in raw if name not in known)
    if unknown:
        raise _bad(unknown[0], "unknown option")
    name = _text(raw, "name")
    date = raw.get("date")
    if not isinstance(date, str) or not DATE.fullmatch(date):
        raise _bad("date", "a date YYYY-MM-DD")
    rules = raw.get("rules", "official")
    if rules not in RULES_DOCUMENTS:
        raise _bad("rules", f"one of {', '.join(RULES_DOCUMENTS)} (R-DECK-5)")
    edition = raw.get("edition")
    if edition not in edition_choices(rules):
        named = [str(choice) for choice in edition_choices(rules) if choice is not None]
        raise _bad(
            "edition",
            f"one of {', '.join(named)} (R-DECK-5)"
            if named
            else f"the {rules} rules name their editions themselves (R-DECK-5)",
        )
    grades = raw.get("grades")
    if (
        not isinstance(grades, list | tuple)
        or not 0 < len(grades) <= MAX_GRADES
        or not all(isinstance(g, str) and 0 < len(g.strip()) <= MAX_NAME for g in grades)
        or len({g.strip() for g in grades}) != len(grades)
    ):
        raise _bad("grades", f"1..{MAX_GRADES} distinct names of 1..{MAX_NAME} characters")
    seed = raw.get("deck_seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise _bad("deck_seed", f"a whole number 0..{MAX_SEED} (R-DECK-1)")
    shuffle = raw.get("per_table_shuffle", False)
    if not isinstance(shuffle, bool):
        raise _bad("per_table_shuffle", "true or false")
    advance_count = raw.get("advance_count", 16)
    if not _is_int(advance_count) or not 3 <= advance_count <= 16:
        raise _bad("advance_count", "a whole number 3..16 (R-ROUND-3: one to four semi tables)")
    tie_seconds = raw.get("tie_break_seconds", 300)
    if not _is_int(tie_seconds) or not 1 <= tie_seconds <= 3600:
        raise _bad("tie_break_seconds", "whole seconds 1..3600 (R-ROUND-6)")
    cards = raw.get("cards_per_round", 48)
    if not _is_int(cards) or not 4 <= cards <= 48:
        raise _bad("cards_per_round", "a whole number 4..48 (R-ROUND-1: 48 by the rules)")
    table_options = raw.get("table_options", {})
    if not isinstance(table_options, Mapping):
        raise _bad("table_options", "a map of table options")
    extra = sorted(str(k) for k in table_options if k not in TABLE_PASSTHROUGH)
    if extra:
        raise _bad("table_options", f"{extra[0]!r} is not an option a tournament passes on")
    lang = read_lang(raw.get("lang", DEFAULT_LANG))
    if lang is None:
        raise _bad("lang", LANG_WHY)
    return TournamentOptions(
        lang=lang,
        name=name,
        date=date,
        grades=tuple(g.strip() for g in grades),
        deck_seed=seed,
        rules=rules,
        edition=edition,
        per_table_shuffle=shuffle,
        advance_count=advance_count,
        tie_break_seconds=tie_seconds,
        cards_per_round=cards,
        table_options=dict(table_options),
    )


def check_new_tournament(raw: Mapping[str, Any]) -> None:
    """What a new tournament must meet besides `tournament_options` (see the module doc):
    a real date, and table options a new table takes. Raises `bad_options` naming them."""
    options = tournament_options(raw)
    try:
        datetime.date.fromisoformat(options.date)
    except ValueError:
        raise _bad("date", f"a real date YYYY-MM-DD, not {options.date!r}") from None
    try:
        check_settings(options.table_options)
    except RuleViolation as refused:
        raise _bad("table_options", refused.message) from None
