"""The sentences a person reads at the terminal, kept as tables a message catalogue can take over.

What it keeps: the form of every words table (`Table`: key -> a sentence with `{placeholder}`
fields, or a `Plural` pair), `say` (one entry filled in), the words of the protocol's own
error codes (`PROTOCOL`, any game) and of the answer verdicts the puzzle judge gives
(`ANSWER_REASONS`, every game that judges a typed answer), and `refusal_sentence` (a refused
request in words).

Why tables: each game keeps ALL its words in one table (`games/<game>/words.py`, `WORDS`),
keyed by what the server says, so that a later message catalogue (gettext via Babel, one
domain, keyed by game + key) replaces the tables mechanically: a `str` entry is a msgid, a
`Plural` entry an ngettext pair, the game's name the msgctxt. The keys:

    event.<EventType>            one sentence per event type (`event.CardWon`)
    event.<EventType>.<variant>  when one event reads two ways (`event.AnswerJudged.wrong`)
    refusal.<code>               a refusal code of the game (`refusal.stale_set`)
    reason.<code>                a reason, cause or outcome code inside an event
    screen.<name>                a line or label of the game's screen

Nothing here knows a game: the game's describe functions pick the key and compute the
placeholders (names, never seat ids; cards as `7♥`); `say` only fills them in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Plural:
    """Two forms of one sentence: `one` when the placeholder `n` is 1, else `other` (an
    ngettext pair once the tables are a catalogue)."""

    one: str
    other: str
    n: str = "count"


Entry = str | Plural
Table = Mapping[str, Entry]


def say(table: Table, key: str, **fields: Any) -> str:
    """The entry `key` of `table`, its placeholders filled from `fields` (a `Plural` picks its
    form by `fields[entry.n]`). A missing key is a bug of the table: KeyError, found by the
    tests that render every event and refusal."""
    entry = table[key]
    if isinstance(entry, Plural):
        entry = entry.one if fields.get(entry.n) == 1 else entry.other
    return entry.format(**fields)


def plural(count: int, one: str, other: str) -> str:
    """`1 card`, `3 cards`: a count and its noun (for a placeholder that is itself a count)."""
    return f"{count} {one if count == 1 else other}"


def names_list(names: list[str]) -> str:
    """`Ada`, `Ada and Bo`, `Ada, Bo and Cy`; `nobody` for none."""
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


# The protocol's error codes (docs/protocol.md, "Error codes"), for a refusal of any game.
PROTOCOL: Table = {
    "refusal.bad_encoding": "the server could not read that message",
    "refusal.bad_message": "the server could not read that request (a field is missing or wrong)",
    "refusal.unknown_type": "the server does not know that kind of request",
    "refusal.too_complex": "that request is too long or too deeply nested",
    "refusal.too_large": "that request is too large",
    "refusal.hello_required": "the client must say hello first",
    "refusal.already_authenticated": "this connection has already said hello",
    "refusal.day_over": "the tournament's day is over: its printed links would have expired",
    "refusal.unauthorized": "the token is not valid (forged, expired, or for another table)",
    "refusal.forbidden": "this token's role may not do that",
    "refusal.unknown_table": "there is no such table",
    "refusal.table_exists": "a table with that id exists already",
    "refusal.reserved_table": "that table id belongs to a tournament's tables",
    "refusal.unknown_game": "the server does not run that game",
    "refusal.invalid_options": "the table's options are not valid",
    "refusal.not_joined": "this connection has not joined that table",
    "refusal.bad_seq": "that event number is not in the table's log",
    "refusal.too_many_joins": "this connection has joined too many tables",
    "refusal.rate_limited": "too many requests at once: that one was dropped, try again",
    "refusal.conflict": "someone else changed the table at the same moment: try again",
    "refusal.unavailable": "the server cannot store anything right now: try again later",
    "refusal.internal": "the server hit an unexpected fault (nothing was recorded)",
}

# The judge's verdicts on a typed answer (docs/puzzles.md, "Refusal reasons").
ANSWER_REASONS: Table = {
    "reason.syntax": "it cannot be read",
    "reason.too_long": "it is too long",
    "reason.wrong_numbers": "it does not use each number once",
    "reason.joined_digits": "two numbers are written together",
    "reason.division_by_zero": "it divides by zero",
    "reason.not_24": "it does not make 24",
    "reason.run_on": "a step does more than one operation",
    "reason.wrong_step_count": "it is not three steps",
    "reason.step_result_wrong": "a step's result is wrong",
    "reason.value_not_available": "a step uses a value that is not there",
    "reason.numbers_left_over": "numbers are left over after the last step",
    "reason.pattern_not_24": "the pattern does not make 24",
    "reason.pattern_mismatch": "the last step is not the pattern declared",
}


def command_words(table: Table, name: str) -> str:
    """A game command as a person reads it: the game's `command.<name>` sentence, else the
    name in words (`fix_solution` -> `fix solution`), never the code."""
    key = f"command.{name}"
    return say(table, key) if key in table else name.replace("_", " ")


def unknown_event(kind: str) -> str:
    """An event this client has no words for (a newer server's): said so, never by its name
    (docs/protocol.md: clients ignore what they do not know)."""
    return "something this client cannot show yet happened at the table"


def answer_reason(reason: str, message: str = "") -> str:
    """Why an answer is wrong, in words: the judge's reason code, else its message."""
    key = f"reason.{reason}"
    return say(ANSWER_REASONS, key) if key in ANSWER_REASONS else (message or "it is wrong")


def refusal_sentence(table: Table, code: str, message: str = "", rule: str | None = None) -> str:
    """A refused request in words: the game's sentence for `code`, else the protocol's, else
    the server's own message; the rule it applies in brackets (`(R-POCKET-3)`)."""
    key = f"refusal.{code}"
    if key in table:
        text = say(table, key)
    elif key in PROTOCOL:
        text = say(PROTOCOL, key)
    else:
        text = message or "the server refused that"
    return f"{text} ({rule})" if rule and rule not in text else text
