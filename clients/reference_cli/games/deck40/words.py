"""The words of a deck40 table at the terminal: the `deck40` vocabulary of the shared catalogue
(protocol/words/<lang>.po, docs/translating.md), which the web pages, `t24 replay` and the
officials' report read too: the sentence of each event, of each refusal, of each reason code
inside an event, and the screen's lines and labels (see `words.py` for the keys). Seats are
named (`{who}`), never by id.
"""

from __future__ import annotations

from clients.reference_cli.words import Table, Vocabulary

WORDS: Table = Vocabulary("deck40")
