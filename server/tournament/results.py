"""A table's final result, read from the table's own events: the ONE place that does it.

What it keeps: the tournament learns a table's result only from the table's stream (issue 11:
"it never reads a table's state any other way"). R-ROUND-7: the result is final when the
proctor signs the score card (`ScoreCardSigned`, issue "protests and rulings"), and a ruling
after that appends corrections and a new signature, so the *last* signed card is the result.

Until the challenge table records signatures, a table's `RoundEnded` (its scores, flags and
disqualifications) stands for the signed card, with empty initials. Switching to signed cards
only is one change here: drop the `RoundEnded` fallback.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SIGNED = "ScoreCardSigned"
ENDED = "RoundEnded"


def table_result(events: Iterable[Any]) -> dict[str, Any] | None:
    """The final result of a table from its recorded events (objects with `type`, `data`,
    `seq`), or None while it has none: `{scores, flags, disqualified, initials, seq}`."""
    signed = ended = None
    for event in events:
        if event.type == SIGNED:
            signed = event
        elif event.type == ENDED:
            ended = event
    chosen = signed or ended
    if chosen is None:
        return None
    data = chosen.data
    return {
        "scores": {str(k): int(v) for k, v in dict(data.get("scores", {})).items()},
        "flags": {str(k): int(v) for k, v in dict(data.get("flags", {})).items()},
        "disqualified": [str(s) for s in data.get("disqualified", [])],
        "initials": str(data.get("initials", "")) if chosen is signed else "",
        "seq": int(chosen.seq),
    }
