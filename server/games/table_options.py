"""The option readers games share: a refused option, a whole number, the `seats` list.

Why here and not in one game: Kortspillet 24 read its seats with the pocket edition's reader,
one plug-in importing another, and the 24 Challenge and practice each wrote the reader again;
a game folder now imports only `server.games` itself (the kit, the contract) and the puzzles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from server.games.base import RuleViolation, SeatInfo

MAX_NAME = 64  # a seat id and a seat's name


def invalid(name: str, why: str, rule: str) -> RuleViolation:
    """The refusal of one option, naming it and citing the game's options `rule`."""
    return RuleViolation("invalid_options", f"option {name!r}: {why}", rule)


def is_int(value: object) -> bool:
    """A whole number that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_seats(
    value: object,
    low: int,
    high: int,
    refuse: Callable[[str, str], RuleViolation],
    count: str = "",
) -> tuple[SeatInfo, ...]:
    """`low`..`high` seats `{"seat", "name"}` with distinct ids; `refuse(option, why)` is the
    game's refusal of an option (its code and rule), `count` its words for a wrong count."""
    if not isinstance(value, list | tuple) or not low <= len(value) <= high:
        raise refuse("seats", count or f"a list of {low}..{high} seats")
    seats = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise refuse("seats", f"each seat is a map with 'seat' and 'name', not {entry!r}")
        seat, name = entry.get("seat"), entry.get("name", "")
        if not isinstance(seat, str) or not 0 < len(seat) <= MAX_NAME:
            raise refuse("seats", f"a seat id is a string of 1..{MAX_NAME} characters")
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise refuse("seats", f"a name is a string of at most {MAX_NAME} characters")
        seats.append(SeatInfo(seat, name))
    if len({seat.seat for seat in seats}) != len(seats):
        raise refuse("seats", "seat ids must be distinct")
    return tuple(seats)
