"""A table's final result, read from the table's own events: the ONE place that does it.

What it keeps: the tournament learns a table's result only from the table's stream (issue 11:
"it never reads a table's state any other way"). R-ROUND-7: the result is final when the
proctor signs the score card (`ScoreCardSigned`, server/games/challenge/protests.py, which
carries the final scores, flags and disqualifications with every correction applied). A
ruling after the signature needs the director to reopen the card, and ends with a new
signature, so the *last* signed card is the result. A table that has ended but is not signed
has no result yet.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SIGNED = "ScoreCardSigned"


def table_result(events: Iterable[Any]) -> dict[str, Any] | None:
    """The final result of a table from its recorded events (objects with `type`, `data`,
    `seq`), or None while it has none: `{scores, flags, disqualified, initials, seq}`."""
    signed = None
    for event in events:
        if event.type == SIGNED:
            signed = event
    if signed is None:
        return None
    data = signed.data
    return {
        "scores": {str(k): int(v) for k, v in dict(data.get("scores", {})).items()},
        "flags": {str(k): int(v) for k, v in dict(data.get("flags", {})).items()},
        "disqualified": [str(s) for s in data.get("disqualified", [])],
        "initials": str(data.get("initials", "")),
        "seq": int(signed.seq),
    }
