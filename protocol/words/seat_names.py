"""What people call the seats of a table: the one rule the terminal and the officials'
report follow (the web pages follow the same rule in clients/web/public/js/words.js
`seatNames`, and a test runs both on the same tables).

Why: a seat id (`s1`, `t01`) is the protocol's handle, never a word a person reads. A seat
reads as its player's name. Where two seats share a name (compared without case or spaces
around it), the first keeps it and each later one reads with its count, `Ada (2)`, the way
people tell two Adas apart; a seat with no name reads as its place at the table, `Player 1`.
Both forms are catalogue words (`common/seat.same_name`, `common/seat.unnamed`), and neither
can come out equal to another seat's name or label: the count moves on until it is free.
The first holder of a name never changes when another sits down later, so a line already
printed keeps meaning the same person.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from protocol.words import Catalogue


def same_name_key(name: str) -> str:
    """Two names people would take for one: `Ada` and ` ada `."""
    return name.strip().lower()  # as the pages' `toLowerCase`, for the same answer


def seat_names(seats: Iterable[Mapping[str, Any]], words: Catalogue) -> dict[str, str]:
    """Seat id -> what people call it, for `seats` in their order at the table (each a map
    with `seat` and `name`, as every game's view and `TableCreated` list them)."""
    entries = [(str(seat.get("seat")), str(seat.get("name") or "").strip()) for seat in seats]
    taken = {same_name_key(name) for _seat, name in entries if name}
    used: set[str] = set()
    named: dict[str, str] = {}
    for position, (seat, name) in enumerate(entries, start=1):
        key = same_name_key(name)
        if name and key not in used:
            label = name
        else:
            number = 2 if name else position
            while True:
                if name:
                    label = words.say("common", "seat.same_name", name=name, number=number)
                else:
                    label = words.say("common", "seat.unnamed", number=number)
                if same_name_key(label) not in used and same_name_key(label) not in taken:
                    break
                number += 1
        used.add(same_name_key(label))
        named[seat] = label
    return named
