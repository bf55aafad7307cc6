"""The words of a 24 Challenge table at the terminal: the `challenge` vocabulary of the
shared catalogue (protocol/words/<lang>.po, docs/translating.md), which the web pages,
`t24 replay` and the officials' report read too: the sentence of each event, of each
refusal, of each reason code inside an event, and the screen's lines and labels (see
`words.py` for the keys). Seats are named (`{who}`), never by id.
"""

from __future__ import annotations

from typing import Any

from clients.reference_cli.words import Table, Vocabulary, language
from protocol.words import catalogue

WORDS: Table = Vocabulary("challenge")


def help_usage(name: str, lang: str | None = None) -> str:
    """How a proctor's command is typed (`help.<name>.usage`): the command as it is, its
    parts in the language (`touch SEAT [FINGERTIPS]`, `touch PLASS [FINGERTUPPER]`)."""
    return catalogue(lang or language()).say("challenge", f"help.{name}.usage")


def help_text(name: str, lang: str | None = None, **values: Any) -> str:
    """What a proctor's command does (`help.<name>`), for the `help` list."""
    return catalogue(lang or language()).say("challenge", f"help.{name}", **values)
