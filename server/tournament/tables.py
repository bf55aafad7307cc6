"""The tables a tournament asks the shell to create: their ids and their challenge options.

What this module keeps: a tournament names its tables relative to itself (`r1.s2.t03`:
round 1, section 2, table 3; `tb4.t1`: tie-break 4, table 1) and the shell prefixes the
tournament's id (`spring.r1.s2.t03`), so the core never depends on its stream's name. The
options of each table are a pure function of the tournament's recorded state: the seats (the
student ids and names), the round (R-FLAG-3 thresholds follow it), the round's cards in the
order `RoundStarted` recorded (R-DECK-1/5), the tournament's pass-through table options (with
the rules document's stumped-card policy, R-PLAY-7, unless they name one), and
for a tie-break (R-ROUND-6) the timed round (`round_seconds`) with 2 to 4 seats. Every table
waits for its students (`wait_for_students`, docs/tournament.md decision 15): the tournament
creates it started, and no card is placed before they are there.
"""

from __future__ import annotations

import re
from typing import Any

from server.games.base import DEFAULT_LANG
from server.puzzles.round_decks import stumped_cards
from server.tournament.state import SeatedTable, TournamentState

TABLE_SEPARATOR = "."
# Every id a tournament may give one of its tables (`round_table_name`, `tie_break_table_name`
# after `<tournament>.`): reserved, so that no table made by hand is ever taken for one.
_TOURNAMENT_TABLE = re.compile(r"(?P<tournament>.+)\.(?:r\d+\.s\d+\.t\d+|tb\d+\.t\d+)")


def table_id(tournament: str, name: str) -> str:
    """The hub's id of a tournament's table (`<tournament>.<name>`)."""
    return f"{tournament}{TABLE_SEPARATOR}{name}"


def reserving_tournament(table: str) -> str | None:
    """The tournament id whose tables' id space `table` is in (`<id>.r1.s2.t03`,
    `<id>.tb4.t1`), or None. Only that tournament creates such a table (server/runtime/hub.py,
    `create_table`): a table a director made under a round's id beforehand would otherwise be
    taken for the tournament's, and its result for the round's (issue 33)."""
    found = _TOURNAMENT_TABLE.fullmatch(table)
    return found.group("tournament") if found else None


def round_table_name(round_number: int, section_index: int, table_index: int) -> str:
    return f"r{round_number}.s{section_index}.t{table_index:02d}"


def tie_break_table_name(number: int, table_index: int) -> str:
    return f"tb{number}.t{table_index}"


def _seats(state: TournamentState, table: SeatedTable) -> list[dict[str, str]]:
    return [{"seat": s, "name": state.students[s].name} for s in table.students]


def table_options_for(state: TournamentState, name: str) -> dict[str, Any]:
    """The challenge options of the tournament's table `name` (its round must be started,
    or it is a tie-break table). Raises KeyError for a table the tournament does not have."""
    found = state.table(name)
    if found is None:
        raise KeyError(name)
    number, table = found
    # R-PLAY-7: the document's stumped-card policy unless the director chose one.
    options: dict[str, Any] = {
        "stumped_cards": stumped_cards(state.options.rules),
        **state.options.table_options,
    }
    tie = state.tie_break_of(name)
    if tie is not None:
        deck = list(tie.deck)
        options.update(
            round=tie.round,
            round_seconds=state.options.tie_break_seconds,
            min_seats=2,
        )
    else:
        round_ = state.round(number)
        deck = list(round_.deck)
        order = round_.orders.get(name)
        if order:
            by_id = {card["card_id"]: card for card in deck}
            deck = [by_id[card_id] for card_id in order]
        options["round"] = number
        if len(table.students) < 3:
            options["min_seats"] = 2
    options["seats"] = _seats(state, table)
    options["deck"] = [dict(card) for card in deck]
    options["wait_for_students"] = True  # decision 15: no card before they are there
    if state.options.lang != DEFAULT_LANG:  # the director's language for every table
        options["lang"] = state.options.lang
    return options
