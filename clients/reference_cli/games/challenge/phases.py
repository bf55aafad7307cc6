"""The words of the 24 Challenge's view that the client's challenge part reads.

What it keeps: the phase names the server's view says (`view["phase"]`, docs/rules.md,
"Views"). The client never derives a phase: it reads it, so these are vocabulary, not rules.
"""

SECOND = 1_000_000
SETUP, BETWEEN, PLACED, REVEALED, SOLVING, ENDED = (
    "setup",
    "between_cards",
    "placed",
    "revealed",
    "solving",
    "ended",
)
